/**
 * GIT_SYNC's clone moving to the remote branch: the pull, and the moves after a refused push. The
 * clone follows the remote branch whatever happened to it. Moved on: the files follow. Rewritten by
 * a force-push: the clone is reset to it, and every commit of its own that this drops is said
 * loudly first (sync-report.ts). Deleted: said, the clone stays as it is, and writes are refused.
 * With writes not pushed yet a pull leaves the clone where it is: their push brings the remote's
 * news (rejected, then made again on top).
 */
import type { WorkTree } from './work-tree.js';
import { firstLine } from './git-process.js';
import type { GitSyncReport } from './sync-report.js';
import type { TrackedBranch } from './tracked-branch.js';

/** Runs `fn` when no write is between its read and its commit (the writers' turn). */
export type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

/** Where the clone's branch is, and how many commits of the remote's it does not have yet. */
export interface CloneState {
  head: string | null;
  behind: number;
}

export interface PullParts {
  branch: TrackedBranch;
  report: GitSyncReport;
  /** What moves the work tree waits for the writers' turn. */
  exclusive: Exclusive;
  workTree: WorkTree;
  /** How many writes wait for their push. */
  queued(): number;
}

/** One pull: where the clone now stands, or null when it could not (the report says why; never thrown). */
export async function pullOnce({ branch, report, exclusive, workTree, queued }: PullParts): Promise<CloneState | null> {
  try {
    const remoteHead = await branch.remoteHead();
    if (remoteHead === '') {
      report.missing();
      report.pulled(false);
      return null;
    }
    if (remoteHead !== (await branch.rev(branch.upstream))) await branch.fetch();
    const clone = await exclusive(() =>
      workTree.serial(async (): Promise<CloneState> => {
        const [head, upstream] = [await branch.rev('HEAD'), await branch.rev(branch.upstream)];
        if (queued() > 0) return { head, behind: await branch.behind() };
        if (head !== upstream) {
          await report.noteDropped(branch);
          await branch.resetHard();
        }
        return { head: upstream, behind: 0 };
      }),
    );
    report.reached('pull');
    report.pulled(true);
    return clone;
  } catch (err) {
    report.failed(`git pull from ${branch.upstream} failed: ${firstLine(err)}`);
    report.pulled(false);
    return null;
  }
}

/**
 * The clone back to the remote branch as last fetched (when git lets it), after saying which
 * commits of its own that drops: a force-push may have taken them from the remote meanwhile.
 */
export async function backToRemote(branch: TrackedBranch, report: GitSyncReport): Promise<void> {
  await report.noteDropped(branch).catch(() => undefined);
  await branch.resetHard().catch(() => undefined);
}

/**
 * After a rejected push and a fetch: when the remote changed none of the files the queued writes
 * touch (`queuedPaths`), what each write made is still exactly what it would make on the remote's
 * head, so the clone moves to that head (files changed there are brought in, the queued ones stay)
 * and the same writes are pushed again: the clone's new head. Else null: the writers must edit the remote's version.
 */
export async function rebased(
  { branch, report, exclusive, workTree }: PullParts,
  queuedPaths: Set<string>,
): Promise<string | null> {
  const changes = await branch.changes();
  if (changes.some((change) => queuedPaths.has(change.rel))) return null;
  return exclusive(() =>
    workTree.serial(async () => {
      await report.noteDropped(branch);
      await branch.moveKeepingOthers(changes);
      return branch.rev('HEAD');
    }),
  );
}
