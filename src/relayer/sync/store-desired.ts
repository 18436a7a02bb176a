/**
 * What the relayer sync wants of the store, through its public methods and subscription only:
 * the ids served, each one in the form the relayer answers it (every field, rpc_urls `{url, weight}`),
 * the ids whose served version changes, and a way to catch up with the remote before a pass.
 */
import { revealedNetworkOf, type NetworkStore } from '../../store/index.js';
import { relayerFormOf, rpcUrlsForm } from '../format/relayer-form.js';
import type { DesiredState } from './desired-state.js';

export function desiredFromStore(store: NetworkStore): DesiredState {
  // A relayer is sent the values of secret references (relayer v1.8 cannot read references).
  const revealed = (id: string): Record<string, unknown> | null => {
    try {
      return revealedNetworkOf(store.get(id));
    } catch {
      return null; // not served (any more)
    }
  };
  return {
    ids: () => store.ids(),
    rpcUrlsOf: (id) => {
      const view = revealed(id);
      return view === null ? null : (rpcUrlsForm(view.rpc_urls) ?? null);
    },
    relayerFormOf: (id) => {
      const view = revealed(id);
      return view === null ? null : relayerFormOf(view);
    },
    subscribe: (listener) => store.subscribe((change) => listener(change.id)),
    catchUp: () => store.caughtUp(),
    hide: (text) => {
      for (const id of store.ids())
        for (const s of store.get(id).secrets ?? []) text = text.split(s.url).join(s.masked);
      return text;
    },
  };
}
