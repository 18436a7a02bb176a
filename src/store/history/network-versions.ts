/**
 * A network as of a commit, and as of the commit before it: what the history shows as the change a
 * commit made, and what a revert restores. The file is read from git's objects (`git show
 * <commit>:<path>`), never from the work tree, at most MAX_FILE_BYTES of it (git is stopped past
 * that), and parsed by the same rules as a file on disk. Either side may have been invalid: it is
 * then null with a problem saying why, and the other side is still shown.
 */
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import type { NetworkId } from '../files/layout.js';
import { candidatesOf } from '../files/layout.js';
import { MAX_FILE_BYTES } from '../files/folder-file.js';
import { networkOf } from '../network-record.js';
import { parseNetworkFile } from '../validation/network-file.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import type { WorkTree } from '../git/work-tree.js';

export interface NetworkVersion {
  /** The full commit id. */
  sha: string;
  /** The network as of the commit; null when its file did not exist then, or was not a valid network (`network_problem`). */
  network: Record<string, unknown> | null;
  /** The network just before the commit; null when the commit created its file, or it was not valid (`previous_problem`). */
  previous: Record<string, unknown> | null;
  network_problem?: string;
  previous_problem?: string;
}

/** One side of a commit: the network, no file, or why its file could not be shown. */
type Side = { network: Record<string, unknown> | null } | { problem: string };

/** Commit ids as the history endpoint gives them (abbreviated from 7 hex digits). */
const SHA = /^[0-9a-f]{7,64}$/;

export async function versionAt(
  workTree: WorkTree,
  root: string,
  id: NetworkId,
  rev: string,
  policy: UrlPolicy,
): Promise<NetworkVersion> {
  if (!SHA.test(rev))
    throw new NetcfgError(
      'BAD_REQUEST',
      `"${rev.slice(0, 80)}" is not a commit id; use one from GET /api/v1/networks/${id.id}/history.`,
    );
  const sha = await workTree.git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).then(
    (out) => out.trim(),
    () => null,
  );
  if (!sha) throw new NetcfgError('NETWORK_NOT_FOUND', `There is no commit ${rev} in the config folder's repository.`);
  const files = candidatesOf(id).map(({ rel }) => ({
    rel,
    fromTop: path.relative(workTree.top, path.join(root, rel)).split(path.sep).join('/'),
  }));
  // The commits a history lists are those that changed the file; any other holds no change of this network.
  const touched = await workTree.git([
    'diff-tree',
    '-r',
    '--root',
    '-m',
    '--first-parent',
    '--no-commit-id',
    '--name-only',
    sha,
    '--',
    ...files.map((f) => f.fromTop),
  ]);
  if (touched.trim() === '')
    throw new NetcfgError(
      'NETWORK_NOT_FOUND',
      `Commit ${sha.slice(0, 7)} did not change ${id.id}'s file; GET /api/v1/networks/${id.id}/history lists the commits that did.`,
    );
  const [now, before] = await Promise.all([
    readAt(workTree, files, id, sha, policy),
    readAt(workTree, files, id, `${sha}^`, policy),
  ]);
  return {
    sha,
    network: 'problem' in now ? null : now.network,
    previous: 'problem' in before ? null : before.network,
    ...('problem' in now ? { network_problem: now.problem } : {}),
    ...('problem' in before ? { previous_problem: before.problem } : {}),
  };
}

/** The network's file at `rev` (.yaml first, as on disk), parsed. */
async function readAt(
  workTree: WorkTree,
  files: Array<{ rel: string; fromTop: string }>,
  id: NetworkId,
  rev: string,
  policy: UrlPolicy,
): Promise<Side> {
  for (const { rel, fromTop } of files) {
    const at = `${rel} as of ${rev.slice(0, 7)}${rev.endsWith('^') ? '^' : ''}`;
    let text: string;
    try {
      text = await workTree.git(['show', `${rev}:${fromTop}`], { maxBytes: MAX_FILE_BYTES });
    } catch (err) {
      if ((err as { reason?: string }).reason === 'too-large')
        return {
          problem: `${at} is larger than ${MAX_FILE_BYTES} bytes, the most a network file may be; it cannot be shown or restored`,
        };
      continue; // no such file then
    }
    const outcome = parseNetworkFile(text, id, rel, policy);
    if (outcome.ok) return { network: networkOf(outcome.record) };
    const first = outcome.problems[0];
    return {
      problem: `${at} is not a valid network file (${first?.line}:${first?.column}: ${first?.message}); it cannot be shown or restored`,
    };
  }
  return { network: null };
}
