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
import { rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
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

/** A write on disk that is not in the remote yet. */
interface Unpushed {
  /** Its path from the top of the clone. */
  rel: string;
  executable: boolean;
  text: string;
  message: string;
  settle(outcome: PushOutcome | NetcfgError): void;
}

/** Rejected pushes in a row put on top of the remote's head before the writers are asked to edit again. */
const MAX_REBASES = 10;

/** Back-to-back pushes after which a replica leaves the branch alone for a moment (yieldBranch)... */
const YIELD_AFTER = 10;
/** ...or after only this many, while another replica is known to push (one of ours was rejected lately). */
const YIELD_AFTER_CONTENDED = 2;
const CONTENDED_MS = 60_000;

/** Where fast-import puts the commits of a push before the branch moves to them (once the remote has them). */
const OUTGOING = 'refs/netcfg/outgoing';

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
  /** Pushes in a row made again on a remote that moved on, without asking the writers. */
  private rebases = 0;
  /** Pushes in a row after which more writes were already waiting: this replica keeps the branch busy. */
  private streak = 0;
  /** How long the last push took (one round trip to the remote and its work). */
  private pushMs = 0;
  /** Set after a push until the branch and git's index are moved to what it pushed (catchUp). */
  private behindOutgoing = false;
  /** When a push of ours was last rejected because another replica's got in first. */
  private rejectedAt = -Infinity;

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
   * Queues the write of `file` (already on disk, holding `text`) for the next push, as a commit of
   * that file alone. `pushed` settles once the remote has it, or throws: GIT_REMOTE_UNAVAILABLE
   * when the remote cannot be reached, STORAGE_UNAVAILABLE when git could not make the commit (the
   * clone is then back at the remote's last known head).
   */
  queue(file: string, mode: number, text: string, message: string): { pushed: Promise<PushOutcome> } {
    const rel = path.relative(this.journal.top, file).split(path.sep).join('/');
    const pushed = new Promise<PushOutcome>((resolve, reject) => {
      const settle = (outcome: PushOutcome | NetcfgError): void => (outcome instanceof NetcfgError ? reject(outcome) : resolve(outcome));
      this.unpushed.push({ rel, executable: (mode & 0o111) !== 0, text, message, settle });
    });
    pushed.catch(() => undefined); // awaited by the writer once it let its turn go
    this.kick();
    return { pushed };
  }

  /** Settles once every commit made so far was pushed: what a PATCH that changed nothing read is then in the remote. */
  pushedSoFar(): Promise<PushOutcome> {
    if (this.unpushed.length === 0) return Promise.resolve('pushed');
    return new Promise((resolve, reject) => {
      const last = this.unpushed.at(-1) as Unpushed;
      const settle = last.settle;
      last.settle = (outcome) => {
        settle(outcome);
        if (outcome instanceof NetcfgError) reject(outcome);
        else resolve(outcome);
      };
    });
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
        if (this.streak >= this.yieldAfter()) await this.yieldBranch();
        await this.pushAll().catch((err: unknown) => this.failAll(err));
      } else if (this.behindOutgoing) await this.catchUp().catch((err: unknown) => this.failAll(err));
      else if (this.pullWaiters.length > 0) {
        const waiters = this.pullWaiters.splice(0);
        await this.pullOnce();
        for (const done of waiters) done();
      } else return;
    }
  }

  /**
   * Replicas race for the branch, and a replica whose push was rejected needs a fetch, a move and
   * a push (about four push round trips) to try again: against a replica that pushes back-to-back
   * it would never get in. So after some back-to-back pushes a replica waits that long (jittered);
   * its writers meanwhile join the next push. Often while other replicas are known to push, rarely
   * otherwise: a replica starved from the start gets its first push in within YIELD_AFTER, and
   * the rejection that push causes tells the busy one.
   */
  private yieldAfter(): number {
    return performance.now() - this.rejectedAt < CONTENDED_MS ? YIELD_AFTER_CONTENDED : YIELD_AFTER;
  }

  private async yieldBranch(): Promise<void> {
    this.streak = 0;
    await delay(this.pushMs * 4 * (0.75 + Math.random() * 0.5));
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
      await this.journal.git(['fast-import', '--quiet', '--force', '--date-format=now'], this.commitsOf(this.unpushed.slice(0, batch)));
    } catch (err) {
      failure = err;
      refused = new NetcfgError('STORAGE_UNAVAILABLE', `git could not commit ${this.unpushed[0]?.rel} (${firstLine(err)}); nothing was changed.`, { cause: err });
    }
    const pushStarted = performance.now();
    if (failure === null) await this.journal.git(['push', '--quiet', this.remote, `${OUTGOING}:refs/heads/${this.branch}`]).catch((err: unknown) => (failure = err));
    this.pushMs = performance.now() - pushStarted;
    if (failure === null) {
      this.lastPushAt = new Date();
      this.lastError = null;
      this.rebases = 0;
      for (const write of this.unpushed.splice(0, batch)) write.settle('pushed');
      this.behindOutgoing = true;
      this.streak = this.unpushed.length > 0 ? this.streak + 1 : 0;
      return;
    }
    await this.catchUp(); // what follows compares and resets against HEAD
    // Refused because the branch moved (by the check before the push, or by a push that won the race to update the ref).
    const rejected = refused === null && isRejection(failure) && (await this.fetched());
    if (rejected) this.rejectedAt = performance.now();
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
        await this.journal.git(['reset', '--hard', '--quiet', this.upstream]);
        this.head = (await this.journal.git(['rev-parse', 'HEAD'])).trim();
        this.unpushed.splice(0).forEach((write, i) => {
          if (rejected || (refused !== null && i >= batch)) write.settle('rejected');
          else write.settle(refused ?? unavailable);
        });
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
        await this.journal.git(['reset', '--hard', '--quiet', this.upstream]).then(
          () => (this.behindOutgoing = false),
          () => undefined,
        );
        for (const write of this.unpushed.splice(0)) write.settle(refusal);
      }),
    );
  }

  /**
   * The remote has what was pushed: the branch and git's index move to it (the files on disk are
   * its files already). Done once no write waits, not after every push: under load the next
   * push builds on the pushed commits directly and saves these git processes.
   */
  private async catchUp(): Promise<void> {
    if (!this.behindOutgoing) return;
    await this.journal.serial(() => this.journal.indexLock.ours(() => this.journal.git(['reset', '--quiet', OUTGOING])));
    this.behindOutgoing = false;
    this.head = (await this.journal.git(['rev-parse', 'HEAD'])).trim();
  }

  /** fast-import's input: one commit per write, each of its file alone, on top of HEAD. */
  private commitsOf(writes: Unpushed[]): Buffer {
    const parts: Buffer[] = [];
    const add = (text: string): number => parts.push(Buffer.from(text));
    const data = (bytes: Buffer): void => {
      add(`data ${bytes.length}\n`);
      parts.push(bytes);
      add('\n');
    };
    writes.forEach((write, i) => {
      add(`commit ${OUTGOING}\nauthor ${this.journal.authorLine} now\ncommitter ${this.journal.authorLine} now\n`);
      data(Buffer.from(write.message));
      // fast-import needs ^0 to start a branch from its own tip.
      if (i === 0) add(`from ${this.behindOutgoing ? `${OUTGOING}^0` : 'HEAD'}\n`);
      // The path runs to the end of the line; ids and the folder layout keep line breaks out of it.
      add(`M ${write.executable ? '100755' : '100644'} inline ${write.rel}\n`);
      data(Buffer.from(write.text));
    });
    return Buffer.concat(parts);
  }

  /**
   * After a rejected push and a fetch: when the remote changed none of the files the queued writes
   * touch, what each write made is still exactly what it would make on the remote's head, so the
   * clone moves to that head (files changed there are brought in, the queued ones stay) and the
   * same writes are pushed again. Else false: the writers must edit the remote's version.
   */
  private async rebased(): Promise<boolean> {
    const fields = (await this.journal.git(['diff', '--name-status', '--no-renames', '-z', 'HEAD', this.upstream])).split('\0');
    const changes: Array<{ deleted: boolean; rel: string }> = [];
    for (let i = 0; i + 1 < fields.length; i += 2) changes.push({ deleted: fields[i] === 'D', rel: fields[i + 1] as string });
    const queued = new Set(this.unpushed.map((write) => write.rel));
    if (changes.some((change) => queued.has(change.rel))) return false;
    await this.exclusive(() =>
      this.journal.serial(async () => {
        await this.journal.git(['reset', '--quiet', this.upstream]);
        const present = changes.filter((c) => !c.deleted).map((c) => c.rel);
        if (present.length > 0) await this.journal.git(['checkout', this.upstream, '--', ...present]);
        for (const change of changes.filter((c) => c.deleted)) rmSync(path.join(this.journal.top, change.rel), { force: true });
        this.head = (await this.journal.git(['rev-parse', 'HEAD'])).trim();
      }),
    );
    return true;
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
