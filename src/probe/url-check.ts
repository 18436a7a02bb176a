/**
 * RPC_PROBE_ON_PATCH: the prober as the store's URL check. A family without a probe answers
 * nothing (every URL passes); the claim is the network's current chain_id, genesis_hash or
 * passphrase.
 */
import type { UrlCheck } from '../store/network-store.js';
import { claimedOf } from './chain-probe.js';
import type { Prober } from './prober.js';

export function urlCheckOf(prober: Prober, mode: UrlCheck['mode']): UrlCheck {
  return {
    mode,
    check: async (family, urls, claimed) => {
      if (!prober.probes(family)) return urls.map((url) => ({ url, status: 'ok', error: null }));
      return prober.probeNetwork(family, urls, claimedOf(claimed));
    },
  };
}
