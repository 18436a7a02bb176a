/**
 * RELAYER_SYNC_FILE and its settings, read for main: the relayers to keep in sync, each key taken
 * from the variable its relayer names (trimmed, never from the file), the interval, the deadline
 * of a call and the lease replicas share. The file is read again while running
 * (follow/relayer-targets.ts), its keys through the same rules (`keys`).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { ResolvedTarget, TargetKeys } from '../follow/relayer-targets.js';
import { DEFAULT_LEASE_MS } from '../relayer/lease/lease.js';
import { DEFAULT_SYNC_INTERVAL_MS } from '../relayer/sync/relayer-sync.js';
import { parseTargetsFile } from '../relayer/sync/targets-file.js';
import { ConfigError, int, isNetcfgSetting, type Env } from './values.js';

export interface RelayerSyncSettings {
  /** RELAYER_SYNC_FILE, followed while running. */
  file: string;
  targets: ResolvedTarget[];
  /** How a changed file's relayers get their keys: the rules of the start, against the same environment. */
  keys: TargetKeys;
  intervalMs: number;
  timeoutMs: number;
  /** RELAYER_SYNC_LEASE_MS and NETCFG_REPLICA_ID: replicas sharing the targets file elect the one that speaks. */
  lease: { leaseMs: number; replica: string };
}

/**
 * `mayBeReferenced`: whether SECRET_REFS_ALLOWED lets some network reference a variable; a relayer
 * added while running may not take its key from one (a file could then read the key), while those
 * named at start are kept out of references altogether (policyFromEnv's `keyVariables`).
 */
export function relayerSyncFromEnv(env: Env, mayBeReferenced: (name: string) => boolean): RelayerSyncSettings | null {
  const file = env.RELAYER_SYNC_FILE;
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `RELAYER_SYNC_FILE ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  const { targets, problems } = parseTargetsFile(text);
  if (problems.length > 0)
    throw new ConfigError(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`).join('\n'));
  const atStart = new Set(targets.map((t) => t.apiKeyEnv));
  const keys: TargetKeys = (specs) => {
    const resolved: ResolvedTarget[] = [];
    for (const { name, url, apiKeyEnv, networks, selfHeal } of specs) {
      const refused = keyRefusal(env, name, apiKeyEnv, !atStart.has(apiKeyEnv) && mayBeReferenced(apiKeyEnv));
      if (refused) return { problem: refused };
      resolved.push({ name, url, apiKey: (env[apiKeyEnv] as string).trim(), networks, selfHeal });
    }
    return { targets: resolved };
  };
  const first = keys(targets);
  if ('problem' in first) throw new ConfigError(`${first.problem}.`);
  const intervalMs = int(env, 'RELAYER_SYNC_INTERVAL_MS', DEFAULT_SYNC_INTERVAL_MS, 100, 86_400_000);
  const lease = {
    leaseMs: int(env, 'RELAYER_SYNC_LEASE_MS', DEFAULT_LEASE_MS, 300, 3_600_000),
    replica: replicaIdOf(env),
  };
  const timeoutMs = int(env, 'RELAYER_SYNC_TIMEOUT_MS', 10_000, 100, 120_000);
  // A call the old holder started must end before a new holder's first call (lease.ts).
  if (timeoutMs > (lease.leaseMs * 3) / 4) {
    throw new ConfigError(
      `RELAYER_SYNC_TIMEOUT_MS (${timeoutMs}) must be at most three quarters of RELAYER_SYNC_LEASE_MS (${lease.leaseMs}).`,
    );
  }
  return { file, targets: first.targets, keys, intervalMs, timeoutMs, lease };
}

/** Why relayer `name` cannot take its key from `variable`, or null. */
function keyRefusal(env: Env, name: string, variable: string, referencable: boolean): string | null {
  // netcfg's own settings (its admin key, its git credentials) are never sent to a relayer.
  if (isNetcfgSetting(variable))
    return `${variable}, named as the key of relayer ${name} in RELAYER_SYNC_FILE, is one of netcfg's own settings; give the relayer's key its own variable`;
  if (referencable)
    return (
      `${variable}, named as the key of relayer ${name} in RELAYER_SYNC_FILE, is one SECRET_REFS_ALLOWED ` +
      `lets a network reference; give the relayer's key a variable no network may name`
    );
  if ((env[variable] ?? '').trim() === '')
    return `${variable}, the key of relayer ${name} in RELAYER_SYNC_FILE, is not set`;
  return null;
}

/** The variables RELAYER_SYNC_FILE reads relayers' keys from at start (relayerSyncFromEnv reports what is wrong with the file). */
export function relayerKeyVariables(env: Env): string[] {
  if (!env.RELAYER_SYNC_FILE) return [];
  try {
    return parseTargetsFile(readFileSync(env.RELAYER_SYNC_FILE, 'utf8')).targets.map((t) => t.apiKeyEnv);
  } catch {
    return [];
  }
}

/** NETCFG_REPLICA_ID: the name this replica holds the relayer lease under (default: host name and pid, unique per process). */
function replicaIdOf(env: Env): string {
  const id = (env.NETCFG_REPLICA_ID ?? '').trim() || `${os.hostname()}-${process.pid}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/.test(id)) {
    throw new ConfigError(`NETCFG_REPLICA_ID must be 1-128 letters, digits, ".", "_", ":" or "-"; got "${id}".`);
  }
  return id;
}
