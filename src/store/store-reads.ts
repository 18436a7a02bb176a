/**
 * What the store serves, read from its index: one network, a page, the ids, the revision and the
 * changes since one. The store (network-store.ts) is these reads plus its folder, git and writes.
 */
import { NetcfgError } from '../errors.js';
import { requireNetworkId } from './files/layout.js';
import { ChangeLog } from './index/change-log.js';
import type { IndexChange, NetworkIndex, Page } from './index/network-index.js';
import type { NetworkRecord } from './network-record.js';

export class StoreReads {
  /** Recent changes, for clients resuming a change stream. */
  protected readonly changes: ChangeLog;

  constructor(protected readonly index: NetworkIndex) {
    this.changes = new ChangeLog(index);
  }

  /** A network by id; INVALID_ID for a malformed id, NETWORK_NOT_FOUND for an unknown one. */
  get(id: string): NetworkRecord {
    const record = this.index.get(requireNetworkId(id).id);
    if (!record)
      throw new NetcfgError('NETWORK_NOT_FOUND', `Network ${id} was not found; GET /api/v1/networks lists the ids.`);
    return record;
  }

  /** A page of networks in id order (of one family, of those `keep` takes, when given), with the total and the revision it was read at. */
  page(offset: number, limit: number, family?: string, keep?: (id: string) => boolean): Page {
    return this.index.page(offset, limit, family, keep);
  }

  /** Every id served (in no particular order). */
  ids(): string[] {
    return [...this.index.ids()];
  }

  /** The index revision: one more at every change of what is served. */
  revision(): number {
    return this.index.revision;
  }

  /** The changes after `revision`, oldest first; null when they are no longer kept (list again). */
  changesSince(revision: number): IndexChange[] | null {
    return this.changes.since(revision);
  }

  /** Hears every change of what is served, as it happens (the change stream, the log); returns the way to stop. */
  subscribe(listener: (change: IndexChange) => void): () => void {
    return this.index.onChange(listener);
  }
}
