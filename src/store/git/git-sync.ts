/**
 * GIT_SYNC: the config folder's clone follows the remote branch its branch tracks, and every PATCH
 * is pushed to it before its 200. One loop talks to the remote, one thing at a time:
 * - push (push.ts): the writes made since the last push become one commit each, all made by one `git fast-import`,
 *   and go out in one `git push` (group commit): writers that arrive while a push is in flight share
 *   the next round trip, and none of them waits for a git process;
 * - pull (pull.ts): one `git ls-remote` asks for the remote's head (one round trip, no objects);
 *   only when it moved does a `git fetch` bring it, and the clone follows it, a force-push included.
 *   netcfg never makes a merge commit. The watcher then brings the changed files into the index.
 * What moves the work tree (a reset, a fast-forward) runs in the writers' turn (`exclusive`): never between a write's read and its commit.
 */
import { NetcfgError } from '../../errors.js';
import { BranchShare } from './branch-share.js';
import { clearStaleIndexLock, excludeOwnFolders } from './clone-setup.js';
import type { WorkTree } from './work-tree.js';
import { pullOnce, type CloneState, type Exclusive, type PullParts } from './pull.js';
import { Pusher } from './push.js';
import { firstLine } from './git-process.js';
import { GitSyncReport, type DroppedNote, type GitCounts, type GitSyncStatus } from './sync-report.js';
import { TrackedBranch } from './tracked-branch.js';
import { pathInClone, WriteQueue } from './write-queue.js';
import type { RetryCounts } from '../retries.js';
import type { FoundEdit, PushOutcome, PushQueue } from '../write/write-strategy.js';

export type { GitCounts, GitSyncStatus } from './sync-report.js';
export type { Exclusive } from './pull.js';

export interface GitSyncOptions {
  /** The deadline of each command that talks to the remote (ls-remote, fetch, push). */
  remoteTimeoutMs: number;
  /** How long git's index.lock may go untouched before it counts as left by a killed git (cleared at open). */
  staleMs: number;
  /** Told once when a force-push dropped commits the clone had (the store logs it). */
  onDropped?: ((note: DroppedNote) => void) | undefined;
  /** Where a re-push on the remote's new head is counted (retries.ts). */
  retries: RetryCounts;
}

/** The remote branch every write goes to before its answer: the writer's push (write-strategy.ts). */
export class GitSync implements PushQueue {
  private pullsAsked = 0;
  private readonly report: GitSyncReport;
  /** Where the clone's branch is, and how far behind the remote's (the pull keeps it too). */
  private clone: CloneState;
  private timer: NodeJS.Timeout | undefined;
  /** Writes not pushed yet, oldest first. */
  private readonly unpushed = new WriteQueue();
  /** Callers waiting for the next pull to finish. */
  private pullWaiters: Array<() => void> = [];
  private working: Promise<void> | null = null;
  /** What the moves of the clone to the remote branch work with (pull.ts), and the push (push.ts). */
  private readonly parts: PullParts;
  private readonly pusher: Pusher;

  private constructor(
    private readonly workTree: WorkTree,
    exclusive: Exclusive,
    private readonly branch: TrackedBranch,
    private readonly options: GitSyncOptions,
    head: string | null,
  ) {
    this.clone = { head, behind: 0 };
    this.report = new GitSyncReport(branch.upstream, options.onDropped);
    this.parts = { branch, report: this.report, exclusive, workTree, queued: () => this.unpushed.length };
    const { remoteTimeoutMs, retries } = options;
    const cloneHead = {
      get: () => this.clone.head,
      set: (at: string | null) => void (this.clone = { ...this.clone, head: at }),
    };
    const share = new BranchShare();
    this.pusher = new Pusher({
      ...this.parts,
      unpushed: this.unpushed,
      share,
      remoteTimeoutMs,
      retries,
      head: cloneHead,
    });
  }

  /** With the push in flight and the one after, a PATCH hears within three remote deadlines. */
  get retryForMs(): number {
    return 2 * this.options.remoteTimeoutMs;
  }

  /** Pulls asked for so far (by the interval or a webhook). */
  get pulls(): number {
    return this.pullsAsked;
  }

  /** `origin/main`: the remote branch the clone's branch tracks. */
  get upstream(): string {
    return this.branch.upstream;
  }

  /** The sync of the clone holding the work tree; throws when its branch tracks no remote branch. */
  static async open(workTree: WorkTree, exclusive: Exclusive, options: GitSyncOptions): Promise<GitSync> {
    const branch = await TrackedBranch.of(workTree, options.remoteTimeoutMs);
    await clearStaleIndexLock(workTree.indexLock.file, options.staleMs);
    // The clone is netcfg's: what a killed process left (a commit not pushed, a file not committed) never got its 200.
    await branch.resetHard();
    await excludeOwnFolders(workTree);
    return new GitSync(workTree, exclusive, branch, options, await branch.rev('HEAD'));
  }

  /** Pulls now, then every `intervalMs`. */
  start(intervalMs: number): Promise<void> {
    this.timer = setInterval(() => void this.pull(), intervalMs);
    this.timer.unref();
    return this.pull();
  }

  /** Stops pulling, kills the git commands running (writes waiting for a push hear 503), and resolves once none runs. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const done of this.pullWaiters.splice(0)) done();
    this.workTree.stop();
    while (this.working) await this.working;
    await this.workTree.serial(async () => undefined);
  }

  /** Why a write cannot go to the remote now, or null: a deleted branch is not re-created by a PATCH. */
  refusal(): NetcfgError | null {
    if (!this.report.branchMissing) return null;
    return new NetcfgError('GIT_REMOTE_UNAVAILABLE', `${this.report.lastError}; nothing was changed.`);
  }

  /** Brings the clone to the remote's head if it moved; resolves once a pull that started after this call is done. */
  pull(): Promise<void> {
    this.pullsAsked++;
    return new Promise((resolve) => {
      this.pullWaiters.push(resolve);
      this.kick();
    });
  }

  /**
   * Queues the write of `file` (on disk, holding `text`) for the next push as a commit of its own.
   * `pushed` settles once the remote has it, or throws GIT_REMOTE_UNAVAILABLE (the remote cannot be
   * reached) or STORAGE_UNAVAILABLE (git could not commit); nothing is changed then.
   */
  queue(
    file: string,
    mode: number,
    text: string,
    message: string,
    author: string,
    found?: FoundEdit,
  ): { pushed: Promise<PushOutcome> } {
    const rel = pathInClone(this.workTree.top, file);
    if (found) this.unpushed.add(rel, mode, found.text, found.message, found.author); // in the same push as the write made on it
    const pushed = this.unpushed.add(rel, mode, text, message, author);
    this.kick();
    return { pushed };
  }

  /** Whether `bytes` are what the clone holds for `file`: the text of its newest queued write, else HEAD's. */
  async holds(file: string, bytes: Buffer): Promise<boolean> {
    const rel = pathInClone(this.workTree.top, file);
    return this.unpushed.holds(rel, bytes) ?? this.workTree.serial(() => this.workTree.headHolds(rel, bytes));
  }

  /** Settles once every write queued so far was pushed: what a PATCH that changed nothing read is then in the remote. */
  pushedSoFar(): Promise<PushOutcome> {
    return this.unpushed.settledSoFar();
  }

  /** Pulls and pushes since start, and the last pushes' durations (the metrics). */
  counts(): GitCounts {
    return this.report.counts();
  }

  /** Where the clone stands. */
  status(): GitSyncStatus {
    return this.report.status({ head: this.clone.head, ahead: this.unpushed.length, behind: this.clone.behind });
  }

  /** Starts the loop that talks to the remote, unless it runs. */
  private kick(): void {
    if (this.working) return;
    this.working = this.work()
      .catch((err: unknown) => {
        this.report.failed(`git failed in the clone: ${firstLine(err)}`);
      })
      .finally(() => {
        this.working = null;
        if (this.unpushed.length > 0 || this.pullWaiters.length > 0) this.kick();
      });
  }

  /** Pushes while there is something to push, then pulls if asked to; one remote round trip at a time. */
  private async work(): Promise<void> {
    for (;;) {
      if (this.unpushed.length > 0) {
        await this.pusher.turn();
        await this.pusher.pushAll().catch((err: unknown) => this.pusher.failAll(err));
      } else if (this.pullWaiters.length > 0) {
        const waiters = this.pullWaiters.splice(0);
        this.clone = (await pullOnce(this.parts)) ?? this.clone;
        for (const done of waiters) done();
      } else return;
    }
  }
}
