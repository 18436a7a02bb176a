/**
 * The remote branch a proposal goes to: `netcfg/<actor>/<family>-<name>`, one per network and
 * actor, so a second proposal of the same network by the same actor moves its branch (and its pull
 * request) and another actor gets another. Every part is a valid git ref component, and two
 * actors or two networks never share a branch.
 */
import { createHash } from 'node:crypto';
import { parseNetworkId, type NetworkId } from '../files/layout.js';
import { actorLabel, type Actor } from '../actor.js';

/** Where every proposal branch lives, under the remote's `refs/heads/`. */
export const PROPOSAL_PREFIX = 'netcfg';

/** A token's name as git holds it verbatim: lower-case letters, digits, `.`, `-`, `_`, and none of git's forbidden shapes. */
const VERBATIM = /^[a-z0-9][a-z0-9._-]*$/;

/** The first 8 hex digits of `text`'s sha256: what keeps two names that read alike apart. */
function tag(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * The actor's part: a token's name as it is (`relayer-eu`) when git can hold it so; anything else (a part
 * of netcfg, a name with `..` or ending in `.` or `.lock`) as its letters and digits, `-` for the rest,
 * then a tag of the actor's label (`system-rpc-prober-1f0c2a9e`): a token would have to be named exactly so to share it.
 */
export function actorPart(actor: Actor): string {
  const name = actor.name;
  if (
    actor.kind === 'token' &&
    VERBATIM.test(name) &&
    !name.includes('..') &&
    !name.endsWith('.') &&
    !name.endsWith('.lock')
  )
    return name;
  const plain = `${actor.kind}-${name}`
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${plain}-${tag(actorLabel(actor))}`;
}

/**
 * The network's part, `<family>-<name>` (`evm-sepolia`); a family with a `-` in it could read like another
 * network's (`a-b:c` and `a:b-c`), so its networks' parts end in a tag of the id.
 */
export function networkPart(id: NetworkId): string {
  const part = `${id.family}-${id.name}`;
  return id.family.includes('-') ? `${part}-${tag(id.id)}` : part;
}

/** `netcfg/relayer-eu/evm-sepolia`: the branch, under `refs/heads/`, of `actor`'s proposal for `id`. */
export function proposalBranchOf(actor: Actor, id: NetworkId): string {
  return `${PROPOSAL_PREFIX}/${actorPart(actor)}/${networkPart(id)}`;
}

/** A proposal branch read back: the actor's part as it is in the name, and the network's id. */
export interface ParsedProposalBranch {
  actor: string;
  network: string;
}

/**
 * `netcfg/<actor>/<family>-<name>` read back (null for any other branch): the family is what comes
 * before the first `-`, unless the part ends in a tag, whose id then says where the family ends.
 */
export function parseProposalBranch(branch: string): ParsedProposalBranch | null {
  const [prefix, actor, part, ...rest] = branch.split('/');
  if (prefix !== PROPOSAL_PREFIX || !actor || !part || rest.length > 0) return null;
  const tagged = /^(.+)-([0-9a-f]{8})$/.exec(part);
  if (tagged) {
    const [, body = '', end = ''] = tagged;
    for (let at = body.indexOf('-'); at > 0; at = body.indexOf('-', at + 1)) {
      const id = parseNetworkId(`${body.slice(0, at)}:${body.slice(at + 1)}`);
      if (id && id.family.includes('-') && tag(id.id) === end) return { actor, network: id.id };
    }
  }
  const dash = part.indexOf('-');
  const id = dash > 0 ? parseNetworkId(`${part.slice(0, dash)}:${part.slice(dash + 1)}`) : null;
  return id ? { actor, network: id.id } : null;
}
