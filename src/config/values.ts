/**
 * How one environment variable becomes a setting, shared by the modules that read the environment
 * for main (index.ts, relayer.ts): each wrong value refuses the start with a sentence that
 * names the variable and what it must be.
 */

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const value = (env[name] || fallback).toLowerCase();
  if (!(choices as readonly string[]).includes(value))
    throw new ConfigError(`${name} must be one of ${choices.join(', ')}; got "${env[name]}".`);
  return value as T;
}

export function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0' || raw === 'no') return false;
  if (raw === 'true' || raw === '1' || raw === 'yes') return true;
  throw new ConfigError(`${name} must be true or false; got "${env[name]}".`);
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  return value;
}

/**
 * netcfg's own settings and the proxy variables: never resolved by a secret reference in rpc_urls,
 * whatever SECRET_REFS_ALLOWED says, nor sent to a relayer as its key, since a file could otherwise
 * send them to the prober, show them to a revealing token or hand them to another service.
 */
const NETCFG_SETTINGS = new RegExp(
  '^(NETCFG_.*|CHAIN_REGISTRY_FILE|API_KEY|API_TOKENS_.*|CONFIG_DIR|GIT_.*|HOST|PORT|INDEX_CACHE|LOG_LEVEL|RELAYER_SYNC_.*|SECRET_REFS_ALLOWED|' +
    'REQUIRE_IF_MATCH|WATCH_POLL.*|LOCK_STALE_MS|(HEADERS|REQUEST|KEEP_ALIVE)_TIMEOUT_MS|' +
    'RPC_(ALLOWED_HOSTS|BLOCK_PRIVATE_IPS|PROBE_.*|AUTO_DISABLE.*)|(HTTPS?|ALL|NO)_PROXY)$',
  'i',
);

export function isNetcfgSetting(name: string): boolean {
  return NETCFG_SETTINGS.test(name);
}
