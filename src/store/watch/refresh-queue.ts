/**
 * Refresh work, one unit per key (a network id, a foreign path): after the last request for a key
 * it waits the given delay, observes (reads the files with their stamps), waits `stableMs` and
 * checks that nothing moved (inode, size, mtime, ctime) before applying what it saw. An in-place
 * write whose `change` event fires before the writer is done (one event in three read an empty
 * file here) is therefore never served, and a write whose event chokidar throttled away is read
 * by a last look after the throttle window.
 */

/** A unit of refresh work: look at disk, check it held still, then serve what was seen. */
export interface Work<T> {
  observe(): T;
  unchanged(seen: T): boolean;
  apply(seen: T): void;
  /** True while what is seen must not be served yet (git rewriting the folder): the look is made again later. */
  held?(): boolean;
}

/** What a guarded step returns when it threw. */
const failed = Symbol('failed');

/** chokidar's own per-path `change` throttle (hard-coded in chokidar 4). */
const CHOKIDAR_THROTTLE_MS = 50;

/** How often a held look is made again: a git pull or checkout takes milliseconds to seconds. */
const HELD_RETRY_MS = 25;

export class RefreshQueue {
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly stableMs: number,
    private readonly onError: (err: Error) => void,
    /** Called when the queue empties; true when it queued more work (then idle waits for that). */
    private readonly onEmpty: () => boolean,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  /** Looks at `key` after `delayMs`, replacing any look of it not started yet. */
  schedule<T>(key: string, work: Work<T>, delayMs: number): void {
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => this.look(key, work), delayMs),
    );
  }

  /** Resolves when no refresh is pending (every event seen so far has been applied). */
  whenIdle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  clear(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.releaseIdle();
  }

  /**
   * One look: observe, wait, check, apply. Whatever the disk's shape makes a step throw (a file
   * where a folder was, a folder that may not be read) ends this key's look, reported, and never
   * escapes the timer: an exception there would end the process.
   */
  private look<T>(key: string, work: Work<T>): void {
    const held = this.guarded(key, () => work.held?.() === true);
    if (held === failed) return;
    if (held) {
      this.pending.set(
        key,
        setTimeout(() => this.look(key, work), HELD_RETRY_MS),
      );
      return;
    }
    const seen = this.guarded(key, () => work.observe());
    if (seen === failed) return;
    this.pending.set(
      key,
      setTimeout(() => {
        const still = this.guarded(key, () => work.unchanged(seen) && work.held?.() !== true);
        if (still === failed) return;
        if (!still) {
          this.look(key, work); // it moved while we looked, or git began rewriting: look again
          return;
        }
        if (this.guarded(key, () => work.apply(seen)) === failed) return;
        this.trail(key, work, () => work.unchanged(seen));
      }, this.stableMs),
    );
  }

  /** `step()`, or `failed` once its error is reported and `key` is done with. */
  private guarded<R>(key: string, step: () => R): R | typeof failed {
    try {
      return step();
    } catch (err) {
      this.onError(err as Error);
      this.done(key);
      return failed;
    }
  }

  private done(key: string): void {
    this.pending.delete(key);
    if (this.pending.size === 0 && !this.onEmpty()) this.releaseIdle();
  }

  /**
   * chokidar 4 drops a path's `change` events for 50 ms after one it sent, with no catch-up
   * event. So look once more after that window: a write that landed inside it is read then.
   */
  private trail<T>(key: string, work: Work<T>, still: () => boolean): void {
    this.pending.set(
      key,
      setTimeout(() => {
        const moved = this.guarded(key, () => !still());
        if (moved === failed) return;
        if (moved) {
          this.look(key, work);
          return;
        }
        this.done(key);
      }, CHOKIDAR_THROTTLE_MS + 10),
    );
  }

  private releaseIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
