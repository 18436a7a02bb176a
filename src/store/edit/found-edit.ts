/**
 * An edit of a network's file made on disk that git does not hold (nobody committed it), found by
 * a write: it gets a commit of its own, as the working tree's, before the write's, so the write's
 * commit holds its own change alone. network-writer.ts asks it under the write's locks.
 */
import { actorLabel, authorLineOf, commitMessage, WORKING_TREE, type Actor } from '../actor.js';
import type { Current } from '../write/current-file.js';
import type { FoundEdit, WriteStrategy } from '../write/write-strategy.js';

/** Committed now (GIT_COMMIT), or returned to be queued with the write (GIT_SYNC); undefined when there is none. */
export async function foundEdit(
  { gitSync, committer }: WriteStrategy,
  netcfgAuthor: { name: string; email: string },
  actor: Actor,
  current: Current,
): Promise<FoundEdit | undefined> {
  if (!gitSync && !committer) return undefined;
  const subject = `netcfg: commit ${current.rel} as found on disk, edited outside netcfg, before a write by ${actorLabel(actor)}`;
  const edit = {
    message: commitMessage(subject, WORKING_TREE),
    author: authorLineOf(WORKING_TREE, netcfgAuthor),
  };
  if (committer) {
    await committer.commitFound(current.abs, current.bytes, edit.message, edit.author);
    return undefined;
  }
  return gitSync && !(await gitSync.holds(current.abs, current.bytes))
    ? { ...edit, text: current.bytes.toString('utf8') }
    : undefined;
}
