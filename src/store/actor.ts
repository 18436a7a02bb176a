/**
 * Who made a write: the holder of a token (by the token's name, given by the HTTP layer) or a part
 * of netcfg itself (the RPC prober, say). Every write carries its actor down to what it leaves
 * behind: its commit (the author, and a trailer of the message) and the change event it causes,
 * so `git log` and the change stream say who changed what.
 */

export interface Actor {
  kind: 'token' | 'system';
  name: string;
}

/** The actor of writes made through the API when it needs no key (loopback only). */
export const ANONYMOUS: Actor = { kind: 'token', name: 'anonymous' };

/** `token:relayer-eu`, `system:rpc-prober`: how change events and commit trailers name an actor. */
export function actorLabel(actor: Actor): string {
  return `${actor.kind}:${actor.name}`;
}

/** The trailer a commit's message ends with, naming its actor (git interpret-trailers reads it). */
export function actorTrailer(actor: Actor): string {
  return `Netcfg-Actor: ${actorLabel(actor)}`;
}

/**
 * The git author of a write by `actor`, as `Name <email>`; netcfg (its configured identity) is the
 * committer. The one API key has no name of its own, so its holder writes as the operator netcfg
 * is configured as (GIT_AUTHOR_NAME and _EMAIL), as ever; a part of netcfg signs with its own name
 * at netcfg's address. What git cannot hold in an identity (`<`, `>`, line breaks) is dropped.
 */
export function authorLineOf(actor: Actor, netcfg: { name: string; email: string }): string {
  const clean = (s: string): string => s.replace(/[<>\r\n\0]/g, '').trim() || 'unknown';
  const name = actor.kind === 'system' ? `netcfg ${actor.name}` : netcfg.name;
  return `${clean(name)} <${clean(netcfg.email)}>`;
}
