/**
 * git's own lock on the work tree. git takes no notice of netcfg's locks, but every git command
 * that rewrites the work tree (checkout, reset, pull, merge, stash) holds `<git dir>/index.lock`
 * while it does, from before it touches the first file until after the last. So a PATCH in a work
 * tree waits until no such command runs before it reads the file, and looks once more right
 * before its rename (in the same synchronous step as its last check of the file): a checkout
 * that starts in between makes it read the file again instead of writing over what the checkout
 * wrote or bringing back a file the checkout deleted. What is left is a git command that takes
 * the lock after that last look and reaches this very file within microseconds (RELIABILITY.md).
 */
import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import type { GitLock } from '../write/write-strategy.js';

/** How often a waiting write looks again (a watch on the git folder would wake on every object git writes). */
const POLL_MS = 5;

export class GitIndexLock implements GitLock {
  private waiters = 0;
  /** This process's own git commands (WorkTree's) in flight: their lock is no reason to wait. */
  private own = 0;
  readonly file: string;

  constructor(gitDir: string) {
    this.file = path.join(gitDir, 'index.lock');
  }

  /** Writes waiting for a git command to finish (shown in readiness). */
  get waiting(): number {
    return this.waiters;
  }

  /**
   * The lock file a write checks right before its rename (null while this process's own git
   * command holds it: that one commits another file, under that file's lock).
   */
  fileToCheck(): string | null {
    return this.own === 0 ? this.file : null;
  }

  /** True while any git command holds the lock, this process's own included: the work tree may be half rewritten. */
  held(): boolean {
    return existsSync(this.file);
  }

  /** True while a git command not run by this process holds the lock. */
  heldByOther(): boolean {
    const file = this.fileToCheck();
    return file !== null && existsSync(file);
  }

  /** Resolves once no other git command holds the lock (true when it had to wait); LOCK_TIMEOUT after `maxWaitMs`. */
  async whenFree(maxWaitMs: number): Promise<boolean> {
    if (!this.heldByOther()) return false;
    const deadline = Date.now() + maxWaitMs;
    this.waiters++;
    try {
      while (this.heldByOther()) {
        if (Date.now() > deadline) {
          throw new NetcfgError(
            'LOCK_TIMEOUT',
            `git has held the index.lock of the config folder's repository for more than ${maxWaitMs} ms ` +
              `(a checkout or pull still running, or a crashed git left the file: remove it if no git command runs); nothing was written, retry the request.`,
          );
        }
        await delay(POLL_MS);
      }
      return true;
    } finally {
      this.waiters--;
    }
  }

  /** Runs one of this process's own git commands. */
  async ours<T>(command: () => Promise<T>): Promise<T> {
    this.own++;
    try {
      return await command();
    } finally {
      this.own--;
    }
  }
}
