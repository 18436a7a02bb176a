/**
 * Per-network write locks. Inside one process, writers to the same network queue in a FIFO chain
 * (no polling, no lost turns). Across processes (replicas on a shared volume) proper-lockfile's
 * mkdir lock serialises them; its lock folders live in `<config>/.locks/`, which the watcher and
 * git ignore. proper-lockfile keeps a held lock fresh; one left by a killed process goes stale
 * after `staleMs` and is taken over; a compromised lock is reported to its holder, which then
 * refuses to rename, instead of crashing.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { NetcfgError } from '../../errors.js';
import { lockNameOf, type NetworkId } from '../files/layout.js';
import type { DiskSteps } from './disk-steps.js';
import { FolderOnce } from './folder-once.js';
import { KeyedQueues } from '../../serial-queue.js';

export interface LockOptions {
  staleMs: number;
  /** Longest wait for a lock held by another process before answering 503. */
  maxWaitMs: number;
}

export const DEFAULT_LOCK: LockOptions = { staleMs: 5000, maxWaitMs: 12000 };

export interface HeldLock {
  /** Set when proper-lockfile could not keep the lock fresh: another process may own it now. */
  readonly compromised: Error | null;
  /** Whether another process held the lock when it was asked for (retries.ts counts it). */
  readonly waited: boolean;
  release(): Promise<void>;
}

export class WriteLocks {
  private readonly turns = new KeyedQueues();
  /** The lock folder, made once rather than per write (and again if something removed it). */
  private folder: FolderOnce | null = null;
  private readonly dirOf: () => string;

  /**
   * `dir`: the lock folder, or a function giving it at each acquire (the store's gives it inside
   * the config folder's checked real path, and throws when nothing may be written there).
   */
  constructor(
    dir: string | (() => string),
    private readonly fs: DiskSteps,
    private readonly options: LockOptions = DEFAULT_LOCK,
  ) {
    this.dirOf = typeof dir === 'string' ? () => dir : dir;
  }

  private folderOf(dir: string): FolderOnce {
    if (this.folder?.dir !== dir) this.folder = new FolderOnce(this.fs, dir);
    return this.folder;
  }

  /** How long a lock may go untouched before it counts as left by a killed process. */
  get staleMs(): number {
    return this.options.staleMs;
  }

  /** Longest wait for a lock held elsewhere (a write waiting on git's lock waits as long). */
  get maxWaitMs(): number {
    return this.options.maxWaitMs;
  }

  /** Runs `fn` in `key`'s turn in this process: after every earlier call with the same key has settled. */
  inTurn<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.turns.run(key, fn);
  }

  /** Resolves once every write queued so far is done (shutdown, and tests that look at `.locks/`). */
  settled(): Promise<void> {
    return this.turns.settled();
  }

  /**
   * Takes the cross-process lock of `id`, waiting with backoff while another process holds it
   * (ELOCKED), up to maxWaitMs. Any other error (EROFS, ENOSPC on the lock folder) fails at once:
   * waiting would not help, and the client should hear so now.
   */
  async acquire(id: NetworkId): Promise<HeldLock> {
    const dir = this.dirOf();
    const folder = this.folderOf(dir);
    const target = path.join(dir, lockNameOf(id));
    const deadline = Date.now() + this.options.maxWaitMs;
    let wait = 5;
    let madeDir = false;
    let waited = false;
    while (true) {
      try {
        await folder.ready();
        let compromised: Error | null = null;
        const release = await lockfile.lock(target, {
          lockfilePath: `${target}.lock`,
          realpath: false, // the target is a name, not a file
          stale: this.options.staleMs,
          update: Math.floor(this.options.staleMs / 4),
          retries: 0, // waited for below, so that only ELOCKED is waited for
          onCompromised: (err) => {
            compromised = err;
          },
        });
        return {
          get compromised() {
            return compromised;
          },
          waited,
          // A compromised lock cannot be released; that is fine.
          release: () => release().catch(() => undefined),
        };
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && !madeDir) {
          madeDir = true; // someone removed .locks/: make it again
          folder.forget();
          continue;
        }
        if (code !== 'ELOCKED' || Date.now() + wait > deadline) throw this.refused(id.id, err);
        waited = true;
      }
      await delay(wait * (0.5 + Math.random()));
      wait = Math.min(100, wait * 1.5);
    }
  }

  /** Why the lock of `key` could not be taken, as the client hears it. */
  private refused(key: string, err: unknown): NetcfgError {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOCKED') {
      return new NetcfgError(
        'LOCK_TIMEOUT',
        `Another writer held the lock of ${key} for longer than ${this.options.maxWaitMs} ms; retry the request.`,
        { cause: err },
      );
    }
    return new NetcfgError(
      'STORAGE_UNAVAILABLE',
      `Could not take the write lock of ${key} (${code ?? (err as Error).message}); the config folder is not writable right now.`,
      { cause: err },
    );
  }
}
