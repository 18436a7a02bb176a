/**
 * Which networks' changes wait for git. git removes a file before it writes its new version, and on a loaded host
 * a pull or checkout can leave it missing (or half written) for longer than the watcher's stable wait: while git
 * holds the work tree's index.lock, a network's change waits, so a network git rewrites never vanishes for a
 * moment. Never longer than MAX_MS for one change: a lock a killed git left behind must not freeze the index
 * (readiness names a stale lock through the writes that wait on it). Once git is done, `onDone` is told, for one
 * look at the whole folder: an event of git's rewrite may have been lost on the way (the kernel's queue of inotify
 * events is bounded), and a stat per file cannot be.
 */
export const MAX_MS = 10_000;

export class GitHold {
  /** Ids whose change waits (or waited past MAX_MS) while git rewrites, since when (ms); emptied once git is done. */
  private readonly since = new Map<string, number>();

  /** `gitRewriting`: true while git holds the work tree's index.lock (store-git.ts); never, outside a work tree. */
  constructor(
    private readonly gitRewriting: () => boolean = () => false,
    private readonly now: () => number = Date.now,
    /** Told once git is done after a change waited for it. */
    private readonly onDone: () => void = () => {},
  ) {}

  /**
   * Whether `id`'s change waits now. Its first wait starts its MAX_MS, which ends only when git is done: past it,
   * a look asked again while the same lock stands is not held afresh (the refresh queue asks twice per look).
   */
  holds(id: string): boolean {
    if (!this.gitRewriting()) {
      if (this.since.size === 0) return false;
      this.since.clear(); // git is done for every network
      this.onDone();
      return false;
    }
    const since = this.since.get(id) ?? this.now();
    this.since.set(id, since);
    return this.now() - since < MAX_MS;
  }

  /** How many networks' changes wait now. */
  get size(): number {
    const now = this.now();
    return [...this.since.values()].filter((since) => now - since < MAX_MS).length;
  }
}
