/**
 * GIT_SYNC: the config folder's clone follows the remote branch its branch tracks, and every PATCH
 * is pushed to it before its 200. One loop talks to the remote, one thing at a time:
 * - push: the writes made since the last push become one commit each, all made by one
 *   `git fast-import`, and go out in one `git push` (group commit): writers that arrive while a
 *   push is in flight share the next round trip, and none of them waits for a git process;
 * - pull: one `git ls-remote` asks for the remote's head (one round trip, no objects); only when it
 *   moved does a `git fetch` and a fast-forward bring the work tree to it. netcfg never makes a merge
 *   commit. The watcher then brings the changed files into the index as for any checkout.
 * What moves the work tree (a reset, a fast-forward) runs in the writers' turn (`exclusive`), so it
 * never lands between a write's read and its commit.
 */
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import { BranchShare } from './branch-share.js';
import { clearStaleIndexLock, excludeOwnFolders, firstLine, isRejection } from './clone-setup.js';
import type { SyncStatus } from '../readiness.js';
import type { GitJournal } from './git-journal.js';
import { TrackedBranch } from './tracked-branch.js';
import { OUTGOING, WriteQueue, type PushOutcome } from './write-queue.js';

export type { PushOutcome } from './write-queue.js';

/** Runs `fn` when no write is between its read and its commit (the writers' turn). */
export type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

/** Rejected pushes in a row put on top of the remote's head before the writers are asked to edit again. */
const MAX_REBASES = 10;

export class GitSync {
  /** Pulls asked for (by the interval or a webhook), for tests. */
  pulls = 0;
  private lastPullAt: Date | null = null;
  private lastPushAt: Date | null = null;
  private lastError: string | null = null;
  private head: string | null = null;
  private behind = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Writes not pushed yet, oldest first. */
  private readonly unpushed = new WriteQueue();
  /** Callers waiting for the next pull to finish. */
  private pullWaiters: Array<() => void> = [];
  private working: Promise<void> | null = null;
  /** Pushes in a row made again on a remote that moved on, without asking the writers. */
  private rebases = 0;
  private readonly share = new BranchShare();

  private constructor(
    private readonly journal: GitJournal,
    private readonly exclusive: Exclusive,
    private readonly branch: TrackedBranch,
  ) {}

  /** `origin/main`: the remote branch the clone's branch tracks. */
  get upstream(): string {
    return this.branch.upstream;
  }

  /** The sync of the clone holding the journal's work tree; throws when its branch tracks no remote branch. */
  static async open(journal: GitJournal, exclusive: Exclusive, staleMs: number): Promise<GitSync> {
    const sync = new GitSync(journal, exclusive, await TrackedBranch.of(journal));
    await clearStaleIndexLock(journal.indexLock.file, staleMs);
    // The clone is netcfg's: what a killed process left (a commit not pushed, a file not committed) never got its 200.
    await sync.branch.resetHard();
    await excludeOwnFolders(journal);
    sync.head = await sync.branch.rev('HEAD');
    return sync;
  }

  /** Pulls now, then every `intervalMs`. */
  start(intervalMs: number): Promise<void> {
    this.timer = setInterval(() => void this.pull(), intervalMs);
    this.timer.unref();
    return this.pull();
  }

  /** Stops pulling, and resolves once no git command of this process runs any more. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const done of this.pullWaiters.splice(0)) done();
    while (this.working) await this.working;
    await this.journal.serial(async () => undefined);
  }

  /** Brings the clone to the remote's head if it moved; resolves once a pull that started after this call is done. */
  pull(): Promise<void> {
    this.pulls++;
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
  queue(file: string, mode: number, text: string, message: string): { pushed: Promise<PushOutcome> } {
    const pushed = this.unpushed.add(path.relative(this.journal.top, file).split(path.sep).join('/'), mode, text, message);
    this.kick();
    return { pushed };
  }

  /** Settles once every write queued so far was pushed: what a PATCH that changed nothing read is then in the remote. */
  pushedSoFar(): Promise<PushOutcome> {
    return this.unpushed.settledSoFar();
  }

  /** Where the clone stands. */
  status(): SyncStatus {
    return {
      head: this.head,
      upstream: this.upstream,
      last_pull_at: this.lastPullAt?.toISOString() ?? null,
      last_push_at: this.lastPushAt?.toISOString() ?? null,
      ahead: this.unpushed.length,
      behind: this.behind,
      last_error: this.lastError,
    };
  }

  /** Starts the loop that talks to the remote, unless it runs. */
  private kick(): void {
    if (this.working) return;
    this.working = this.work().finally(() => {
      this.working = null;
      if (this.unpushed.length > 0 || this.pullWaiters.length > 0) this.kick();
    });
  }

  /** Pushes while there is something to push, then pulls if asked to; one remote round trip at a time. */
  private async work(): Promise<void> {
    for (;;) {
      if (this.unpushed.length > 0) {
        await this.share.turn();
        await this.pushAll().catch((err: unknown) => this.failAll(err));
      } else if (this.pullWaiters.length > 0) {
        const waiters = this.pullWaiters.splice(0);
        await this.pullOnce();
        for (const done of waiters) done();
      } else return;
    }
  }

  /**
   * One commit per write queued so far, all by one `git fast-import`, then one push of them. Any
   * failure drops every queued write: each writer edits again on the remote's head, or hears 503.
   */
  private async pushAll(): Promise<void> {
    const batch = this.unpushed.length;
    let failure: unknown = null;
    let refused: NetcfgError | null = null;
    try {
      await this.branch.fastImport(this.unpushed.fastImportInput(batch, 'HEAD', this.journal.authorLine));
    } catch (err) {
      failure = err;
      refused = new NetcfgError('STORAGE_UNAVAILABLE', `git could not commit ${[...this.unpushed.paths()].join(', ')} (${firstLine(err)}); nothing was changed.`, { cause: err });
    }
    const pushStarted = performance.now();
    if (failure === null) await this.branch.push(OUTGOING).catch((err: unknown) => (failure = err));
    const pushMs = performance.now() - pushStarted;
    if (failure === null) {
      this.lastPushAt = new Date();
      this.lastError = null;
      this.rebases = 0;
      // The remote has them: the branch and git's index move to them (the files on disk are theirs
      // already) before the answers, so a client that got its 200 finds `git status` clean.
      await this.journal
        .serial(() => this.branch.moveTo(OUTGOING))
        .catch((err: unknown) => (this.lastError = `git could not move the clone to what it pushed: ${firstLine(err)}`));
      this.head = await this.branch.rev('HEAD').catch(() => this.head);
      this.unpushed.settleFirst(batch, 'pushed');
      this.share.pushed(pushMs, this.unpushed.length > 0);
      return;
    }
    // Refused because the branch moved (by the check before the push, or by a push that won the race to update the ref).
    const rejected = refused === null && isRejection(failure) && (await this.branch.fetched());
    if (rejected) this.share.rejected(pushMs);
    if (rejected && this.rebases < MAX_REBASES && (await this.rebased())) {
      this.rebases++;
      return; // the loop pushes the same writes again, on top of the remote's head
    }
    this.rebases = 0;
    if (!rejected && refused === null) this.lastError = `git push to ${this.upstream} failed: ${firstLine(failure)}`;
    const unavailable = new NetcfgError('GIT_REMOTE_UNAVAILABLE', `The change could not be pushed to ${this.upstream} (${firstLine(failure)}); nothing was changed, retry later.`, { cause: failure });
    await this.exclusive(() =>
      this.journal.serial(async () => {
        // The writes queued after the batch go with it: the files on disk are put back too.
        await this.branch.resetHard();
        this.head = await this.branch.rev('HEAD');
        this.unpushed.settleAll((i) => (rejected || (refused !== null && i >= batch) ? 'rejected' : (refused ?? unavailable)));
      }),
    );
  }

  /**
   * What git refused beyond a push (the clone's own refs or files): every queued write hears 503,
   * and the clone goes back to the remote's last known head when git lets it.
   */
  private async failAll(err: unknown): Promise<void> {
    this.lastError = `git failed in the clone: ${firstLine(err)}`;
    const refusal = new NetcfgError('STORAGE_UNAVAILABLE', `git failed in the clone (${firstLine(err)}); nothing was changed, retry later.`, { cause: err });
    await this.exclusive(() =>
      this.journal.serial(async () => {
        await this.branch.resetHard().catch(() => undefined);
        this.unpushed.settleAll(() => refusal);
      }),
    );
  }

  /**
   * After a rejected push and a fetch: when the remote changed none of the files the queued writes
   * touch, what each write made is still exactly what it would make on the remote's head, so the
   * clone moves to that head (files changed there are brought in, the queued ones stay) and the
   * same writes are pushed again. Else false: the writers must edit the remote's version.
   */
  private async rebased(): Promise<boolean> {
    const changes = await this.branch.changes();
    const queued = this.unpushed.paths();
    if (changes.some((change) => queued.has(change.rel))) return false;
    await this.exclusive(() =>
      this.journal.serial(async () => {
        await this.branch.moveKeepingOthers(changes);
        this.head = await this.branch.rev('HEAD');
      }),
    );
    return true;
  }

  private async pullOnce(): Promise<void> {
    try {
      const remoteHead = await this.branch.remoteHead();
      if (remoteHead !== '' && remoteHead !== (await this.branch.rev(this.upstream))) await this.branch.fetch();
      await this.exclusive(() =>
        this.journal.serial(async () => {
          // With writes not pushed yet, their push brings the remote's news (rejected, then made again on top).
          const [head, upstream] = [await this.branch.rev('HEAD'), await this.branch.rev(this.upstream)];
          // A fast-forward puts HEAD at the upstream's commit: no need to ask git again.
          if (this.unpushed.length === 0 && head !== upstream) await this.branch.fastForward();
          this.head = this.unpushed.length === 0 ? upstream : head;
          this.behind = await this.branch.behind();
        }),
      );
      this.lastPullAt = new Date();
      this.lastError = null;
    } catch (err) {
      this.lastError = `git pull from ${this.upstream} failed: ${firstLine(err)}`;
    }
  }
}
