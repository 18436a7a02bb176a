/**
 * One network as a relayer answered it against what netcfg would have it answer, field by field
 * (every field of its NetworkResponse: relayer-form.ts). rpc_urls differing is drift, which its API
 * can set back; any other field differing is stale, which only a reload of its files changes.
 * Both values are shown through `show` (the relayer's key, secret values and URL credentials hidden).
 */
import { isDeepStrictEqual } from 'node:util';
import { ANSWERED_FIELDS } from '../format/relayer-form.js';
import type { FindingDetail, FindingKind } from './findings.js';
import { reloadRemedy, type NetworkStatus } from './target-status.js';

export interface Difference {
  /** drift and/or stale; empty when in sync. */
  kinds: FindingKind[];
  status: NetworkStatus | undefined;
  details: Partial<Record<FindingKind, FindingDetail>>;
}

/** Why stale fields stay: what only a reload of the relayer's files changes. */
export function staleSentence(fields: string[], relayer: string): string {
  return `${fields.join(', ')} ${fields.length === 1 ? 'differs' : 'differ'} on ${relayer}; ${reloadRemedy(relayer)}`;
}

export function compareNetwork(
  id: string,
  held: Record<string, unknown>,
  want: Record<string, unknown>,
  on: { relayer: string; selfHeal: boolean; show: (text: string) => string },
): Difference {
  const fields = ANSWERED_FIELDS.filter((f) => (f in want || f in held) && !isDeepStrictEqual(held[f], want[f]));
  if (fields.length === 0) return { kinds: [], status: undefined, details: {} };
  const shown = (from: Record<string, unknown>, keys: string[]): Record<string, unknown> =>
    JSON.parse(on.show(JSON.stringify(Object.fromEntries(keys.map((k) => [k, from[k] ?? null]))))) as Record<
      string,
      unknown
    >;
  const drift = fields.includes('rpc_urls');
  const stale = fields.filter((f) => f !== 'rpc_urls');
  const kinds: FindingKind[] = [
    ...(drift ? (['drift'] as const) : []),
    ...(stale.length > 0 ? (['stale'] as const) : []),
  ];
  const remedy = stale.length > 0 ? { error: staleSentence(stale, on.relayer) } : {};
  const status: NetworkStatus = {
    id,
    state: drift ? 'drifted' : 'stale',
    fields,
    relayer: shown(held, fields),
    netcfg: shown(want, fields),
    ...remedy,
  };
  const urls = { relayer: shown(held, ['rpc_urls']).rpc_urls, netcfg: shown(want, ['rpc_urls']).rpc_urls };
  return {
    kinds,
    status,
    details: {
      drift: {
        fields: ['rpc_urls'],
        relayer_value: urls.relayer,
        netcfg_value: urls.netcfg,
        sent: on.selfHeal ? urls.netcfg : null,
      },
      stale: { fields: stale, relayer_value: shown(held, stale), netcfg_value: shown(want, stale), sent: null },
    },
  };
}
