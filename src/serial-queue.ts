/**
 * Work that must not overlap, run one at a time in the order asked: git commands in one work tree,
 * the index cache's writes, self-healing's changes, and per key (a network, a proposal branch) the
 * writes' turns. A task's failure is its caller's alone: the next task runs all the same.
 */

/** Tasks run one after another; each caller hears its own task's outcome. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` once every task queued before it has settled. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task queued so far has settled (never rejects). */
  async settled(): Promise<void> {
    await this.tail;
  }
}

/** One SerialQueue per key, forgotten once its last task settled (keys come and go: networks, branches). */
export class KeyedQueues {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once every task queued before it under `key` has settled; other keys run alongside. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every task queued so far, under every key, has settled (and those they queued). */
  async settled(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}
