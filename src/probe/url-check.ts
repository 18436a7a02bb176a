/**
 * RPC_PROBE_ON_PATCH: the prober as the store's URL check. A family without a probe answers
 * nothing (every URL passes); the claim is the network's current chain_id, genesis_hash or
 * passphrase.
 */
import type { UrlCheck } from '../store/network-store.js';
import type { Prober } from './prober.js';

export function urlCheckOf(prober: Prober, mode: UrlCheck['mode']): UrlCheck {
  return {
    mode,
    check: async (family, urls, claimed) => {
      if (!prober.probes(family)) return urls.map((url) => ({ url, status: 'ok', error: null }));
      const pick = <T>(key: string, type: string): T | undefined => (typeof claimed[key] === type ? (claimed[key] as T) : undefined);
      return prober.probeNetwork(family, urls, { chain_id: pick<number>('chain_id', 'number'), genesis_hash: pick<string>('genesis_hash', 'string'), passphrase: pick<string>('passphrase', 'string') });
    },
  };
}
