/**
 * A network as a relayer answers it (its NetworkResponse, src/models/network/response.rs at
 * v1.8.0): each field as netcfg's export writes it (export.ts's rule: a field of its type's struct
 * whose value the relayer would take; one it would refuse is absent), read back the way the relayer
 * answers it: rpc_urls as `{url, weight}` only, no `type`/`network`, and no `gas_price_cache`,
 * which the relayer keeps but does not answer. A network lacking what its type requires is still
 * compared field by field: the relayer may hold it from files netcfg did not write.
 */
import { FIELDS, isRelayerType, kindProblem } from './relayer-types.js';

/** The fields of NetworkResponse besides id, name and network_type: every one a sync compares. */
export const ANSWERED_FIELDS = [
  'rpc_urls',
  'explorer_urls',
  'average_blocktime_ms',
  'is_testnet',
  'tags',
  'chain_id',
  'required_confirmations',
  'features',
  'symbol',
  'passphrase',
  'horizon_url',
] as const;
export type AnsweredField = (typeof ANSWERED_FIELDS)[number];

/** The relayer's weight for a URL given without one (constants DEFAULT_RPC_WEIGHT). */
const DEFAULT_WEIGHT = 100;

/** rpc_urls as the relayer answers them: `{url, weight}` each, nothing else (a `secret: true` flag is netcfg's, never compared). */
export function rpcUrlsForm(value: unknown): Array<{ url: string; weight: number }> | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((entry) => {
    if (typeof entry === 'string') return { url: entry, weight: DEFAULT_WEIGHT };
    const { url, weight } = (entry ?? {}) as { url?: unknown; weight?: unknown };
    return { url: String(url), weight: typeof weight === 'number' ? weight : DEFAULT_WEIGHT };
  });
}

/** Only the answered fields of a relayer's answer, rpc_urls as `{url, weight}`; absent and null are the same. */
export function answeredForm(answer: Record<string, unknown>): Record<string, unknown> {
  const form: Record<string, unknown> = {};
  for (const key of ANSWERED_FIELDS) {
    const value = key === 'rpc_urls' ? rpcUrlsForm(answer[key]) : answer[key];
    if (value !== undefined && value !== null) form[key] = value;
  }
  return form;
}

/**
 * `view`: netcfg's wire view with secret values in place (id, name, network_type, fields). The
 * network as the relayer would answer it once it loaded netcfg's export; null for a family the
 * relayer does not know.
 */
export function relayerFormOf(view: Record<string, unknown>): Record<string, unknown> | null {
  const family = view.network_type;
  if (!isRelayerType(family)) return null;
  const entry: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(FIELDS[family])) {
    const value = key === 'rpc_urls' ? rpcUrlsForm(view[key]) : view[key];
    if (value !== undefined && value !== null && kindProblem(kind, value) === null) entry[key] = value;
  }
  return answeredForm(entry);
}
