/**
 * RPC_PROBE_ON_PATCH: the prober as the store's URL check. A family without a probe answers
 * nothing (every URL passes); the claim is the network's current chain_id, genesis_hash or
 * passphrase.
 */
import type { UrlCheck } from '../store/index.js';
import { claimedOf } from './chain-probe.js';
import type { Prober } from './prober.js';
import { Slots } from './slots.js';

/**
 * Calls in flight for PATCHes, apart from the prober's other work: `each` per PATCH, so one PATCH
 * never waits behind another's silent URLs (8 covers a typical network's URLs at once; the schema's
 * 32 silent URLs take 4 deadlines, 20 s), and `total` over all PATCHes (8 PATCHes at full width), so
 * a burst of PATCHes cannot open sockets without bound.
 */
export const PATCH_PROBES = { each: 8, total: 64 };

export function urlCheckOf(
  prober: Prober,
  mode: UrlCheck['mode'],
  bounds: { each: number; total: number } = PATCH_PROBES,
): UrlCheck {
  const patches = new Slots(bounds.total);
  return {
    mode,
    check: async (family, urls, claimed) => {
      if (!prober.probes(family)) return urls.map((url) => ({ url, status: 'ok', error: null }));
      return prober.probeNetwork(family, urls, claimedOf(claimed), patches.within(bounds.each));
    },
  };
}
