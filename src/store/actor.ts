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

/**
 * Whoever edited a file on disk without committing it, as netcfg found it before a write of that file:
 * its own commit, `netcfg working-tree <netcfg's address>`, goes before the write's.
 */
export const WORKING_TREE: Actor = { kind: 'system', name: 'working-tree' };

/** `token:relayer-eu`, `system:rpc-prober`: how change events and commit trailers name an actor. */
export function actorLabel(actor: Actor): string {
  return `${actor.kind}:${actor.name}`;
}

/** The trailer a commit's message ends with, naming its actor (git interpret-trailers reads it). */
export function actorTrailer(actor: Actor): string {
  return `Netcfg-Actor: ${actorLabel(actor)}`;
}

/** Why netcfg itself wrote: the commit's subject (in place of the usual one), a body of evidence, more trailers. */
export interface WriteNote {
  subject: string;
  body: string;
  trailers: string[];
}

/** A write's commit message: the subject, the note's body, then every trailer in the last paragraph, the actor's last. */
export function commitMessage(subject: string, actor: Actor, note?: WriteNote): string {
  const trailers = [...(note?.trailers ?? []), actorTrailer(actor)].join('\n');
  return note ? `${note.subject}\n\n${note.body}\n\n${trailers}\n` : `${subject}\n\n${trailers}\n`;
}

/** Tokens that name no person: API_KEY's holder and the keyless loopback caller write as the operator netcfg is configured as. */
export const OPERATOR_TOKENS: ReadonlySet<string> = new Set(['api-key', ANONYMOUS.name]);

/**
 * The git author of a write by `actor`, as `Name <email>`; netcfg (its configured identity) is the
 * committer. A named token (API_TOKENS_FILE) signs as itself, `relayer-eu <relayer-eu@netcfg>`;
 * API_KEY and the keyless caller, which name no one, write as the configured operator
 * (GIT_AUTHOR_NAME and _EMAIL), as ever; a part of netcfg signs as `netcfg <part>` at netcfg's
 * address. What git cannot hold in an identity (`<`, `>`, line breaks) is dropped.
 */
export function authorLineOf(actor: Actor, netcfg: { name: string; email: string }): string {
  const clean = (s: string): string => s.replace(/[<>\r\n\0]/g, '').trim() || 'unknown';
  if (actor.kind === 'token' && !OPERATOR_TOKENS.has(actor.name))
    return `${clean(actor.name)} <${clean(actor.name)}@netcfg>`;
  const name = actor.kind === 'system' ? `netcfg ${actor.name}` : netcfg.name;
  return `${clean(name)} <${clean(netcfg.email)}>`;
}
