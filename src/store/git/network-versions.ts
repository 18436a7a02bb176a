/**
 * A network as of a commit, and as of the commit before it: what the history shows as the change a
 * commit made, and what a revert restores. The file is read from git's objects (`git show
 * <commit>:<path>`), never from the work tree, and parsed by the same rules as a file on disk.
 */
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import type { NetworkId } from '../files/layout.js';
import { candidatesOf } from '../files/layout.js';
import { networkOf } from '../network-record.js';
import { parseNetworkFile } from '../validation/network-file.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import type { GitJournal } from './git-journal.js';

export interface NetworkVersion {
  /** The full commit id. */
  sha: string;
  /** The network as of the commit; null when its file did not exist then. */
  network: Record<string, unknown> | null;
  /** The network just before the commit; null when the commit created its file. */
  previous: Record<string, unknown> | null;
}

/** Commit ids as the history endpoint gives them (abbreviated from 7 hex digits). */
const SHA = /^[0-9a-f]{7,64}$/;

export async function versionAt(journal: GitJournal, root: string, id: NetworkId, rev: string, policy: UrlPolicy): Promise<NetworkVersion> {
  if (!SHA.test(rev)) throw new NetcfgError('BAD_REQUEST', `"${rev.slice(0, 80)}" is not a commit id; use one from GET /api/v1/networks/${id.id}/history.`);
  const sha = await journal.git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).then(
    (out) => out.trim(),
    () => null,
  );
  if (!sha) throw new NetcfgError('NETWORK_NOT_FOUND', `There is no commit ${rev} in the config folder's repository.`);
  const [network, previous] = await Promise.all([readAt(journal, root, id, sha, policy), readAt(journal, root, id, `${sha}^`, policy)]);
  if (network === null && previous === null) throw new NetcfgError('NETWORK_NOT_FOUND', `${id.id} has no file at commit ${sha.slice(0, 7)} or just before it.`);
  return { sha, network, previous };
}

/** The network's file at `rev` (.yaml first, as on disk), parsed; null when there is none. */
async function readAt(journal: GitJournal, root: string, id: NetworkId, rev: string, policy: UrlPolicy): Promise<Record<string, unknown> | null> {
  for (const { rel } of candidatesOf(id)) {
    const fromTop = path.relative(journal.top, path.join(root, rel)).split(path.sep).join('/');
    const text = await journal.git(['show', `${rev}:${fromTop}`]).catch(() => null);
    if (text === null) continue;
    const outcome = parseNetworkFile(text, id, rel, policy);
    if (outcome.ok) return networkOf(outcome.record);
    const first = outcome.problems[0];
    throw new NetcfgError('FILE_INVALID', `${rel} as of ${rev.slice(0, 7)}${rev.endsWith('^') ? '^' : ''} is not a valid network file (${first?.line}:${first?.column}: ${first?.message}); it cannot be shown or restored.`);
  }
  return null;
}
