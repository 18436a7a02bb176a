/**
 * What the relayer sync wants of the store, through its public methods and subscription only:
 * the ids served, each one's rpc_urls in the form the relayer answers them (`{url, weight}`), the
 * ids whose served version changes, and a way to catch up with the remote before a pass.
 */
import { revealedNetworkOf } from '../../store/network-record.js';
import type { NetworkStore } from '../../store/network-store.js';
import type { DesiredState } from './desired-state.js';

export function desiredFromStore(store: NetworkStore): DesiredState {
  return {
    ids: () => store.ids(),
    rpcUrlsOf: (id) => {
      try {
        // A relayer is sent the values of secret references (relayer v1.8 cannot read references), as `{url, weight}` only.
        return (revealedNetworkOf(store.get(id)).rpc_urls as Array<{ url: string; weight: number }>).map(({ url, weight }) => ({ url, weight }));
      } catch {
        return null; // not served (any more)
      }
    },
    subscribe: (listener) => store.subscribe((change) => listener(change.id)),
    refresh: () => store.caughtUp(),
    hide: (text) => {
      for (const id of store.ids()) for (const s of store.get(id).secrets ?? []) text = text.split(s.url).join(s.masked);
      return text;
    },
  };
}
