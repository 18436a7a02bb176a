/**
 * Starting a real store on a real folder, and awaiting what the watcher does (with a deadline,
 * never a sleep).
 */
import { NetworkStore, type StoreOptions } from '../../src/store/network-store.js';
import type { IndexChange } from '../../src/store/index/network-index.js';
import type { NetworkRecord } from '../../src/store/network-record.js';

export async function startStore(root: string, options: Partial<StoreOptions> = {}): Promise<NetworkStore> {
  const store = new NetworkStore({ root, ...options });
  await store.start();
  return store;
}

/** Resolves with the first index change matching `predicate`; rejects after `deadlineMs`. */
export function nextChange(
  store: NetworkStore,
  predicate: (c: IndexChange) => boolean,
  deadlineMs = 5000,
): Promise<IndexChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching index change within ${deadlineMs} ms`));
    }, deadlineMs);
    const off = store.subscribe((change) => {
      if (!predicate(change)) return;
      clearTimeout(timer);
      off();
      resolve(change);
    });
  });
}

/** Polls a condition on each index change or watcher idle, up to a deadline. */
export async function until(
  store: NetworkStore,
  condition: () => boolean,
  deadlineMs = 5000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${deadlineMs} ms`);
    await Promise.race([store.whenIdle(), new Promise((r) => setTimeout(r, 20))]);
    await new Promise((r) => setImmediate(r));
  }
}

/** The record `store` serves for `id`, or undefined when it serves none. */
export function served(store: NetworkStore, id: string): NetworkRecord | undefined {
  return store.ids().includes(id) ? store.get(id) : undefined;
}
