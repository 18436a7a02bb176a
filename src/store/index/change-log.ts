/**
 * A bounded log of recent index changes, so a client that lost its change stream can resume
 * from the last revision it saw. When that revision has fallen out of the log, the client is told
 * to list again (it cannot be given a gap-free replay any more).
 */
import type { IndexChange, NetworkIndex } from './network-index.js';

export const DEFAULT_CHANGE_LOG_SIZE = 10_000;

export class ChangeLog {
  private readonly ring: IndexChange[] = [];

  constructor(
    private readonly index: NetworkIndex,
    private readonly capacity = DEFAULT_CHANGE_LOG_SIZE,
  ) {
    index.onChange((change) => {
      this.ring.push(change);
      if (this.ring.length >= 2 * this.capacity) this.ring.splice(0, this.ring.length - this.capacity);
    });
  }

  get revision(): number {
    return this.index.revision;
  }

  /**
   * Changes after `revision`, oldest first; null when some of them are no longer kept (or the
   * revision is from the future, e.g. from before a restart of a replica with another history).
   */
  since(revision: number): IndexChange[] | null {
    const current = this.index.revision;
    if (revision > current) return null;
    if (revision === current) return [];
    const oldest = this.ring[0];
    if (!oldest || oldest.revision > revision + 1) return null;
    return this.ring.slice(revision + 1 - oldest.revision);
  }
}
