/**
 * The OpenZeppelin Relayer's network structs, as a table (read from its
 * src/config/config_file/network/{common,evm,solana,stellar}.rs at v1.8.0): which fields each type
 * has, what each must hold, which lists a child adds to instead of replacing, and what a resolved
 * network must have. Its structs deny unknown fields, so this table is also what an export may hold.
 */

import { isSecretRef } from '../../store/index.js';

export const RELAYER_TYPES = ['evm', 'solana', 'stellar'] as const;
export type RelayerType = (typeof RELAYER_TYPES)[number];

export function isRelayerType(type: unknown): type is RelayerType {
  return typeof type === 'string' && (RELAYER_TYPES as readonly string[]).includes(type);
}

/** What a field holds: serde's types of the structs (`Option<u64>`, `Option<Vec<String>>`, ...). */
type Kind = 'rpc-urls' | 'strings' | 'u64' | 'bool' | 'string' | 'gas-price-cache';

const COMMON: Record<string, Kind> = {
  rpc_urls: 'rpc-urls',
  explorer_urls: 'strings',
  average_blocktime_ms: 'u64',
  is_testnet: 'bool',
  tags: 'strings',
};

/** Every field of each type's struct besides `type`, `network` and `from`, in the struct's order. */
export const FIELDS: Record<RelayerType, Record<string, Kind>> = {
  evm: {
    ...COMMON,
    chain_id: 'u64',
    required_confirmations: 'u64',
    features: 'strings',
    symbol: 'string',
    gas_price_cache: 'gas-price-cache',
  },
  solana: { ...COMMON },
  stellar: { ...COMMON, passphrase: 'string', horizon_url: 'string' },
};

/** Lists a child extends (the parent's, then each of the child's not in it yet); every other field is the child's, else the parent's. */
export const MERGED_LISTS: Record<RelayerType, string[]> = {
  evm: ['tags', 'features'],
  solana: ['tags'],
  stellar: ['tags'],
};

/** What a resolved network must hold (evm.rs `validate`), beyond a base network's `rpc_urls`. */
export const REQUIRED: Record<RelayerType, string[]> = {
  evm: ['chain_id', 'required_confirmations', 'symbol'],
  solana: [],
  stellar: [],
};

const U64_MAX = 2n ** 64n - 1n;

/** Why `value` cannot stand in a field of `kind`, with the pointer below the field where it goes wrong; null when it can. */
export function kindProblem(kind: Kind, value: unknown): { at: string; message: string } | null {
  const here = (message: string, at = '') => ({ at, message });
  switch (kind) {
    case 'u64':
      return Number.isInteger(value) && (value as number) >= 0 && BigInt(value as number) <= U64_MAX
        ? null
        : here('must be a whole number of at least 0');
    case 'bool':
      return typeof value === 'boolean' ? null : here('must be true or false');
    case 'string':
      return typeof value === 'string' ? null : here('must be a string');
    case 'strings': {
      if (!Array.isArray(value)) return here('must be a list of strings');
      const bad = value.findIndex((v) => typeof v !== 'string');
      return bad < 0 ? null : here('must be a string', `/${bad}`);
    }
    case 'rpc-urls':
      return rpcUrlsProblem(value);
    case 'gas-price-cache':
      return gasPriceCacheProblem(value);
  }
}

/** rpc_config.rs: a string or `{url, weight}` (weight 0..100, default 100), http or https only; or a reference of PR #517. */
function rpcUrlsProblem(value: unknown): { at: string; message: string } | null {
  if (!Array.isArray(value)) return { at: '', message: 'must be a list of URLs or {url, weight} objects' };
  for (const [i, entry] of value.entries()) {
    const object =
      typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : null;
    if (isSecretRef(entry)) continue; // PR #517's {type: env, value}: the relayer resolves it
    const url = typeof entry === 'string' ? entry : object?.url;
    if (typeof url !== 'string' && !isSecretRef(url))
      return { at: `/${i}`, message: 'must be a URL string or an object with a url string' };
    if (typeof url === 'string' && !url.startsWith('http://') && !url.startsWith('https://'))
      return {
        at: object ? `/${i}/url` : `/${i}`,
        message: 'must start with http:// or https:// (the relayer supports no other scheme)',
      };
    if (!object) continue;
    const extra = Object.keys(object).find((k) => k !== 'url' && k !== 'weight');
    if (extra !== undefined) return { at: `/${i}/${extra}`, message: `is not a field of an RPC URL (url, weight)` };
    const weight = object.weight;
    if (
      weight !== undefined &&
      weight !== null &&
      !(Number.isInteger(weight) && (weight as number) >= 0 && (weight as number) <= 100)
    )
      return { at: `/${i}/weight`, message: 'must be a whole number from 0 to 100' };
  }
  return null;
}

/** evm.rs GasPriceCacheConfig: enabled, stale_after_ms > 0, expire_after_ms > stale_after_ms (defaults 20 s and 45 s). */
function gasPriceCacheProblem(value: unknown): { at: string; message: string } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { at: '', message: 'must be an object of enabled, stale_after_ms, expire_after_ms' };
  const cache = value as Record<string, unknown>;
  const extra = Object.keys(cache).find((k) => !['enabled', 'stale_after_ms', 'expire_after_ms'].includes(k));
  if (extra !== undefined)
    return { at: `/${extra}`, message: 'is not a field of gas_price_cache (enabled, stale_after_ms, expire_after_ms)' };
  if (cache.enabled !== undefined && typeof cache.enabled !== 'boolean')
    return { at: '/enabled', message: 'must be true or false' };
  for (const key of ['stale_after_ms', 'expire_after_ms']) {
    if (cache[key] !== undefined && kindProblem('u64', cache[key]))
      return { at: `/${key}`, message: 'must be a whole number of at least 0' };
  }
  const stale = (cache.stale_after_ms as number | undefined) ?? 20_000;
  const expire = (cache.expire_after_ms as number | undefined) ?? 45_000;
  if (stale === 0) return { at: '/stale_after_ms', message: 'must be greater than zero' };
  if (expire <= stale) return { at: '/expire_after_ms', message: 'must be greater than stale_after_ms' };
  return null;
}
