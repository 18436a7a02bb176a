/**
 * Which networks' changes wait for git. git removes a file before it writes its new version, and on a loaded host
 * a pull or checkout can leave it missing (or half written) for longer than the watcher's stable wait: while git
 * holds the work tree's index.lock, a network's change waits, so a network git rewrites never vanishes for a
 * moment. Never longer than MAX_MS for one change: a lock a killed git left behind must not freeze the index
 * (readiness names a stale lock through the writes that wait on it).
 */
export const MAX_MS = 10_000;

export class GitHold {
  /** Ids whose change waits, since when (ms). */
  private readonly since = new Map<string, number>();

  /** `gitRewriting`: true while git holds the work tree's index.lock (store-git.ts); never, outside a work tree. */
  constructor(
    private readonly gitRewriting: () => boolean = () => false,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `id`'s change waits now (its first wait starts its MAX_MS). */
  holds(id: string): boolean {
    if (!this.gitRewriting()) {
      this.since.delete(id);
      return false;
    }
    const since = this.since.get(id) ?? this.now();
    const holds = this.now() - since < MAX_MS;
    if (holds) this.since.set(id, since);
    else this.since.delete(id);
    return holds;
  }

  /** How many networks' changes wait now. */
  get size(): number {
    return this.since.size;
  }
}
