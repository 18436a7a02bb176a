/**
 * Per-network write locks. Inside one process, writers to the same network queue in a FIFO chain
 * (no polling, no lost turns). Across processes (replicas on a shared volume) proper-lockfile's
 * mkdir lock serialises them; its lock folders live in `<config>/.locks/`, which the watcher and
 * git ignore. A PATCH's write takes that folder itself for its few milliseconds (withTurn); held
 * longer (withLock), proper-lockfile keeps it fresh. A lock left by a killed process goes stale
 * after `staleMs` and is taken over; a compromised lock is reported to the holder, which then
 * refuses to rename, instead of crashing.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { NetcfgError } from '../errors.js';
import { LOCK_IN_THIS_THREAD, type LockTaker, type ReleaseLock } from './cross-process-lock.js';
import { FolderOnce, type FsSeam } from './fs-seam.js';

export interface LockOptions {
  staleMs: number;
  /** Longest wait for a lock held by another process before answering 503. */
  maxWaitMs: number;
}

export const DEFAULT_LOCK: LockOptions = { staleMs: 5000, maxWaitMs: 12000 };

export interface HeldLock {
  /** Set when proper-lockfile could not keep the lock fresh: another process may own it now. */
  compromised: Error | null;
  /**
   * withTurn's first run: the folder that is the cross-process lock, not taken yet, for the
   * caller's write to take for its own few milliseconds (fs-seam.ts). Null when the lock is held.
   */
  folder: string | null;
}

/**
 * What withTurn's `fn` answers when its write could not go ahead on its own: the lock's folder was
 * taken, or the file changed after it was read (most likely another process's write). `fn` then
 * runs again holding the lock throughout.
 */
export const NEEDS_THE_LOCK = Symbol('needs the lock');

export class FileLocks {
  private readonly chains = new Map<string, Promise<unknown>>();
  /** The lock folder, made once rather than per write (and again if something removed it). */
  private readonly folder: FolderOnce;

  constructor(
    readonly dir: string,
    fs: FsSeam,
    private readonly options: LockOptions = DEFAULT_LOCK,
    /** Where proper-lockfile's calls run: this thread, or a disk thread (ThreadedFs). */
    private readonly taker: LockTaker = LOCK_IN_THIS_THREAD,
  ) {
    this.folder = new FolderOnce(fs, dir);
  }

  /** Longest wait for a lock held elsewhere (a write waiting on git's lock waits as long). */
  get maxWaitMs(): number {
    return this.options.maxWaitMs;
  }

  /**
   * Runs `fn` holding the lock named `key` (a network id), in this process and across processes.
   * Resolves with `fn`'s result as soon as `fn` is done; the lock itself is released just after
   * (see release()), and the next holder of the same key in this process waits for that release.
   */
  withLock<T>(key: string, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
    return this.withTurn(key, fn, { holdThroughout: true });
  }

  /**
   * Runs `fn` in `key`'s turn in this process, first without the cross-process lock: `fn` is
   * given the lock's folder and its write takes it, for the write alone, in the same step (one
   * message to a disk thread per PATCH where the lock cost two more: bench/README.md). `fn` has
   * read the file before that, so its write must check the bytes it read are still there (the
   * writer's does). If it could not (NEEDS_THE_LOCK), `fn` runs again holding the lock (waited
   * for, taken over when stale), as it runs at once with `holdThroughout` (withLock).
   */
  async withTurn<T>(key: string, fn: (lock: HeldLock) => Promise<T | typeof NEEDS_THE_LOCK>, { holdThroughout = false } = {}): Promise<T> {
    const freed = await this.turn(key);
    if (!holdThroughout) {
      let first: T | typeof NEEDS_THE_LOCK;
      try {
        await this.folder.ready().catch((err: unknown) => {
          throw this.refused(key, err);
        });
        first = await fn({ compromised: null, folder: `${this.targetOf(key)}.lock` });
      } catch (err) {
        freed();
        throw err;
      }
      if (first !== NEEDS_THE_LOCK) {
        freed();
        return first;
      }
    }
    return this.holdAcrossProcesses(
      key,
      async (lock) => {
        const result = await fn(lock);
        if (result === NEEDS_THE_LOCK) throw new Error('a write holding its lock asked for it again');
        return result;
      },
      freed,
    );
  }

  /** Why the lock of `key` could not be taken, as the client hears it. */
  private refused(key: string, err: unknown): NetcfgError {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOCKED') {
      return new NetcfgError('LOCK_TIMEOUT', `Another writer held the lock of ${key} for longer than ${this.options.maxWaitMs} ms; retry the request.`, { cause: err });
    }
    return new NetcfgError('STORAGE_UNAVAILABLE', `Could not take the write lock of ${key} (${code ?? (err as Error).message}); the config folder is not writable right now.`, { cause: err });
  }

  /** Waits for `key`'s turn in this process; the function returned ends it. */
  private async turn(key: string): Promise<() => void> {
    const previous = this.chains.get(key);
    let freed!: () => void;
    const free = new Promise<void>((resolve) => (freed = resolve));
    this.chains.set(key, free);
    void free.then(() => {
      if (this.chains.get(key) === free) this.chains.delete(key);
    });
    if (previous) await previous;
    return freed;
  }

  /** proper-lockfile's "file" for `key` (its lock is the folder `<target>.lock`). */
  private targetOf(key: string): string {
    // proper-lockfile keys its registry by the "file" argument, so each network needs its own.
    return path.join(this.dir, key.replace(':', '~'));
  }

  /** Resolves once every lock taken so far is released (shutdown, and tests that look at `.locks/`). */
  async settled(): Promise<void> {
    while (this.chains.size > 0) await Promise.all(this.chains.values());
  }

  private async holdAcrossProcesses<T>(key: string, fn: (lock: HeldLock) => Promise<T>, freed: () => void): Promise<T> {
    const held: HeldLock = { compromised: null, folder: null };
    let release: ReleaseLock;
    try {
      release = await this.acquire(key, held);
    } catch (err) {
      freed();
      throw this.refused(key, err);
    }
    try {
      return await fn(held);
    } finally {
      this.release(release, freed);
    }
  }

  /**
   * The release (an rmdir, ~60-70 us on these disks, the slowest call of a lock) runs once the
   * caller's own continuation has run: by then a PATCH's response is on its way, so the rmdir no
   * longer sits between a durable write and its answer (bench/README.md). Nothing waits on it but
   * the next writer of the same network here, and settled().
   */
  private release(release: ReleaseLock, freed: () => void): void {
    setImmediate(() => {
      // A compromised lock cannot be released; that is fine.
      release().catch(() => undefined).finally(freed);
    });
  }

  /**
   * Takes the cross-process lock, waiting with backoff while another process holds it (ELOCKED),
   * up to maxWaitMs. Any other error (EROFS, ENOSPC on the lock folder) fails at once: waiting
   * would not help, and the client should hear so now.
   */
  private async acquire(key: string, held: HeldLock): Promise<ReleaseLock> {
    const target = this.targetOf(key);
    const deadline = Date.now() + this.options.maxWaitMs;
    let wait = 5;
    let madeDir = false;
    while (true) {
      await this.folder.ready();
      try {
        return await this.taker.takeLock(target, this.options.staleMs, (err) => {
          held.compromised = err;
        });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && !madeDir) {
          madeDir = true;
          this.folder.forget();
          continue;
        }
        if (code !== 'ELOCKED' || Date.now() + wait > deadline) throw err;
      }
      await delay(wait * (0.5 + Math.random()));
      wait = Math.min(100, wait * 1.5);
    }
  }
}
