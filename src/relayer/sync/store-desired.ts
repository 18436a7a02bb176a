/**
 * What the relayer sync wants of the store, through its public methods and subscription only:
 * the ids served, each one's rpc_urls in the form the relayer answers them (`{url, weight}`), the
 * ids whose served version changes, and a way to catch up with the remote before a pass.
 */
import { networkOf } from '../../store/network-record.js';
import type { NetworkStore } from '../../store/network-store.js';
import type { DesiredState } from './desired-state.js';

export function desiredFromStore(store: NetworkStore): DesiredState {
  return {
    ids: () => store.ids(),
    rpcUrlsOf: (id) => {
      try {
        return networkOf(store.get(id)).rpc_urls as unknown[];
      } catch {
        return null; // not served (any more)
      }
    },
    subscribe: (listener) => store.subscribe((change) => listener(change.id)),
    refresh: () => store.caughtUp(),
  };
}
