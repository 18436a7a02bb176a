/**
 * GIT_SYNC: the config folder's clone follows the remote branch its branch tracks, and every PATCH
 * is pushed to it before its 200. One loop talks to the remote, one thing at a time:
 * - push: every commit made since the last push goes out in one `git push` (group commit), so
 *   writers that arrive while a push is in flight share the next round trip;
 * - pull: one `git ls-remote` asks for the remote's head (one round trip, no objects); only when it
 *   moved does a `git fetch` and a fast-forward bring the work tree to it. netcfg never makes a merge
 *   commit. The watcher then brings the changed files into the index as for any checkout.
 * What moves the work tree (a reset, a fast-forward) runs in the writers' turn (`exclusive`), so it
 * never lands between a write's read and its commit.
 */
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import { clearStaleIndexLock, excludeOwnFolders, firstLine, isRejection } from './clone-setup.js';
import type { GitJournal } from './git-journal.js';

export interface SyncStatus {
  head: string | null;
  upstream: string;
  last_pull_at: string | null;
  last_push_at: string | null;
  ahead: number;
  behind: number;
  last_error: string | null;
}

/** 'rejected': the remote moved on and the clone is now at its new head, without the commit: edit again. */
export type PushOutcome = 'pushed' | 'rejected';

/** Runs `fn` when no write is between its read and its commit (the writers' turn). */
export type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

interface Unpushed {
  sha: string;
  settle(outcome: PushOutcome | NetcfgError): void;
}

export class GitSync {
  /** Pulls asked for (by the interval or a webhook), for tests. */
  pulls = 0;
  private lastPullAt: Date | null = null;
  private lastPushAt: Date | null = null;
  private lastError: string | null = null;
  private head: string | null = null;
  private behind = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Commits not pushed yet, oldest first. */
  private readonly unpushed: Unpushed[] = [];
  /** Callers waiting for the next pull to finish. */
  private pullWaiters: Array<() => void> = [];
  private working: Promise<void> | null = null;

  private constructor(
    private readonly journal: GitJournal,
    private readonly exclusive: Exclusive,
    /** `origin/main`: the remote and the branch the clone's branch tracks. */
    readonly upstream: string,
  ) {}

  private get remote(): string {
    return this.upstream.slice(0, this.upstream.indexOf('/'));
  }

  private get branch(): string {
    return this.upstream.slice(this.upstream.indexOf('/') + 1);
  }

  /** The sync of the clone holding the journal's work tree; throws when its branch tracks no remote branch. */
  static async open(journal: GitJournal, exclusive: Exclusive, staleMs: number): Promise<GitSync> {
    let upstream: string;
    try {
      upstream = (await journal.git(['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}'])).trim();
    } catch (err) {
      throw new Error(`GIT_SYNC needs CONFIG_DIR inside a clone whose branch tracks a remote branch (what "git clone URL" makes); ${firstLine(err)}`, { cause: err });
    }
    const sync = new GitSync(journal, exclusive, upstream);
    await clearStaleIndexLock(journal.indexLock.file, staleMs);
    // The clone is netcfg's: what a killed process left (a commit not pushed, a file not committed) never got its 200.
    await journal.git(['reset', '--hard', '--quiet', upstream]);
    await excludeOwnFolders(journal);
    sync.head = (await journal.git(['rev-parse', 'HEAD'])).trim();
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
   * Commits `file` alone (in the writers' turn, like the write before it). The commit goes out with
   * the next push; `pushed` settles then, or throws GIT_REMOTE_UNAVAILABLE when the remote cannot
   * be reached (the clone is then back at the remote's last known head). A commit git refuses puts
   * the file back as it is in HEAD and is a STORAGE_UNAVAILABLE.
   */
  commit(file: string, message: string): Promise<{ pushed: Promise<PushOutcome> }> {
    return this.journal.serial(async () => {
      const rel = path.relative(this.journal.top, file);
      try {
        await this.journal.indexLock.ours(() => this.journal.git(['commit', '--no-verify', '--quiet', '--only', '-m', message, '--', rel]));
      } catch (err) {
        await this.journal.git(['checkout', '--quiet', 'HEAD', '--', rel]);
        throw new NetcfgError('STORAGE_UNAVAILABLE', `git could not commit ${rel} (${firstLine(err)}); nothing was changed.`, { cause: err });
      }
      const sha = (await this.journal.git(['rev-parse', 'HEAD'])).trim();
      const pushed = this.awaitPush(sha);
      this.kick();
      return { pushed };
    });
  }

  /** Settles once every commit made so far was pushed: what a PATCH that changed nothing read is then in the remote. */
  pushedSoFar(): Promise<PushOutcome> {
    const last = this.unpushed.at(-1);
    return last ? this.awaitPush(last.sha) : Promise.resolve('pushed');
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

  /** A promise of the push carrying `sha`; already handled, so a failure before anyone awaits it is no unhandled rejection. */
  private awaitPush(sha: string): Promise<PushOutcome> {
    const pushed = new Promise<PushOutcome>((resolve, reject) => {
      this.unpushed.push({ sha, settle: (outcome) => (outcome instanceof NetcfgError ? reject(outcome) : resolve(outcome)) });
    });
    pushed.catch(() => undefined);
    return pushed;
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
      if (this.unpushed.length > 0) await this.pushAll();
      else if (this.pullWaiters.length > 0) {
        const waiters = this.pullWaiters.splice(0);
        await this.pullOnce();
        for (const done of waiters) done();
      } else return;
    }
  }

  /** One push of every commit made so far. Any failure drops them all: each writer edits again on the remote's head, or hears 503. */
  private async pushAll(): Promise<void> {
    const batch = this.unpushed.length;
    const tip = this.unpushed[batch - 1]?.sha as string;
    let failure: unknown = null;
    await this.journal.git(['push', '--quiet', this.remote, `${tip}:refs/heads/${this.branch}`]).catch((err: unknown) => (failure = err));
    if (failure === null) {
      this.head = tip;
      this.lastPushAt = new Date();
      this.lastError = null;
      for (const commit of this.unpushed.splice(0, batch)) commit.settle('pushed');
      return;
    }
    // Refused because the branch moved (by the check before the push, or by a push that won the race to update the ref).
    const rejected = isRejection(failure) && (await this.fetched());
    if (!rejected) this.lastError = `git push to ${this.upstream} failed: ${firstLine(failure)}`;
    const refusal = new NetcfgError('GIT_REMOTE_UNAVAILABLE', `The change could not be pushed to ${this.upstream} (${firstLine(failure)}); nothing was changed, retry later.`, { cause: failure });
    await this.exclusive(() =>
      this.journal.serial(async () => {
        // Commits made on top of the refused ones are gone with them.
        await this.journal.git(['reset', '--hard', '--quiet', this.upstream]);
        this.head = (await this.journal.git(['rev-parse', 'HEAD'])).trim();
        for (const commit of this.unpushed.splice(0)) commit.settle(rejected ? 'rejected' : refusal);
      }),
    );
  }

  /** Fetches the upstream branch; false when the remote cannot be reached. */
  private async fetched(): Promise<boolean> {
    try {
      await this.journal.git(['fetch', '--quiet', this.remote, this.branch]);
      return true;
    } catch {
      return false;
    }
  }

  private async pullOnce(): Promise<void> {
    const rev = async (ref: string): Promise<string> => (await this.journal.git(['rev-parse', ref])).trim();
    try {
      const listed = await this.journal.git(['ls-remote', '--quiet', this.remote, `refs/heads/${this.branch}`]);
      const remoteHead = listed.split(/\s/)[0] ?? '';
      if (remoteHead !== '' && remoteHead !== (await rev(this.upstream))) await this.journal.git(['fetch', '--quiet', this.remote, this.branch]);
      await this.exclusive(() =>
        this.journal.serial(async () => {
          // With commits not pushed yet, their push brings the remote's news (rejected, then made again on top).
          if (this.unpushed.length === 0 && (await rev('HEAD')) !== (await rev(this.upstream))) await this.journal.git(['merge', '--ff-only', '--quiet', this.upstream]);
          this.head = await rev('HEAD');
          this.behind = Number((await this.journal.git(['rev-list', '--count', `HEAD..${this.upstream}`])).trim()) || 0;
        }),
      );
      this.lastPullAt = new Date();
      this.lastError = null;
    } catch (err) {
      this.lastError = `git pull from ${this.upstream} failed: ${firstLine(err)}`;
    }
  }
}
