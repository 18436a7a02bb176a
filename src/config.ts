/**
 * The environment, read in one place. Everything netcfg can be told from outside is here, with its
 * default; src/main.ts (and `netcfg serve`, whose flags override these) is the only caller.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { redactText } from './redact.js';
import type { RelayerTarget } from './relayer/sync/relayer-client.js';
import { DEFAULT_SYNC_INTERVAL_MS } from './relayer/sync/relayer-sync.js';
import { DEFAULT_LEASE_MS } from './relayer/sync/lease.js';
import { parseTargetsFile } from './relayer/sync/targets-file.js';
import type { UrlPolicy } from './store/validation/url-rules.js';
import { DEFAULT_HEAL, type HealOptions } from './probe/auto-heal.js';
import { AllowListError, allowedLookup, parseAllowList } from './secret-refs-allowed.js';
import { DEFAULT_TOKENS_GRACE_MS } from './access/tokens-follow.js';
import { FORGE_KINDS, type ForgeSettings } from './forge/forge.js';

export interface Config {
  host: string;
  port: number;
  configDir: string;
  apiKey: string | undefined;
  logLevel: string;
  requireIfMatch: boolean;
  policy: UrlPolicy;
  watchPoll: boolean;
  watchPollIntervalMs: number;
  /** A write lock older than this is taken to be left by a dead process and taken over. */
  lockStaleMs: number;
  /** GIT_COMMIT: commit every PATCH to the git work tree holding the config folder. */
  gitCommit: boolean;
  gitAuthor: { name: string; email: string };
  /** GIT_SYNC: follow the remote branch the clone's branch tracks, every GIT_SYNC_INTERVAL_MS; each remote command stopped after GIT_REMOTE_TIMEOUT_MS. */
  gitSync: { intervalMs: number; remoteTimeoutMs: number } | null;
  /** GIT_PROPOSALS (with GIT_FORGE_URL, _REPO, _TOKEN): the forge changes are proposed on; GIT_PROPOSE_ONLY: every change is. null: off. */
  proposals: (ForgeSettings & { proposeOnly: boolean }) | null;
  /** GIT_WEBHOOK_SECRET: the secret push webhooks are signed with; the webhook route exists only with it. */
  webhookSecret: string | undefined;
  /** RPC_PROBE_ON_PATCH: ask a PATCH's RPC URLs which chain they serve; `reject` refuses the wrong chain. */
  probeOnPatch: 'off' | 'warn' | 'reject';
  /** RPC_PROBE_INTERVAL_MS: probe every URL of every network in the background, once per interval; null: off. */
  probeIntervalMs: number | null;
  /** RPC_AUTO_DISABLE (with _PROBES, _MS, _MAX_PER_HOUR): the prober disables a dead URL and restores it, by commits; null: off. */
  autoHeal: HealOptions | null;
  /** INDEX_CACHE: where to keep what was parsed for a faster restart; null when 'off'; undefined: the default place. */
  indexCache: string | null | undefined;
  timeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** API_TOKENS_FILE: named tokens with roles and scopes, followed while running; null: only API_KEY. */
  apiTokensFile: string | null;
  /** API_TOKENS_GRACE_MS: how long a tokens file missing or not parsing keeps its last good tokens; then named tokens are refused. */
  apiTokensGraceMs: number;
  /** RELAYER_SYNC_FILE: the relayers kept in sync (keys read from the variables it names), every RELAYER_SYNC_INTERVAL_MS; null: off. */
  relayerSync: {
    targets: Array<RelayerTarget & { networks: string[] | null }>;
    intervalMs: number;
    timeoutMs: number;
    /** RELAYER_SYNC_LEASE_MS and NETCFG_REPLICA_ID: replicas sharing the targets file elect the one that speaks. */
    lease: { leaseMs: number; replica: string };
  } | null;
}

export class ConfigError extends Error {}

export const MIN_API_KEY_LENGTH = 32;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export type Env = Record<string, string | undefined>;

function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const value = (env[name] || fallback).toLowerCase();
  if (!(choices as readonly string[]).includes(value)) throw new ConfigError(`${name} must be one of ${choices.join(', ')}; got "${env[name]}".`);
  return value as T;
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0' || raw === 'no') return false;
  if (raw === 'true' || raw === '1' || raw === 'yes') return true;
  throw new ConfigError(`${name} must be true or false; got "${env[name]}".`);
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  return value;
}

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * API_KEY without the whitespace around it: a key kept in a file or a Kubernetes secret often
 * ends in a newline, and no HTTP header can carry whitespace at either end, so such a key could
 * never match. Whitespace or control characters inside it could not either: refused.
 */
function apiKeyOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const key = raw.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (key === '' || /[\s\u0000-\u001f\u007f]/.test(key)) {
    throw new ConfigError('API_KEY holds whitespace or control characters inside it (or nothing else), which no Authorization header can carry; generate one with: openssl rand -hex 32');
  }
  return key;
}

/** The process's environment, read here (and handed on) so that no other module reads it. */
export function environment(): Env {
  return { ...process.env };
}

/**
 * RPC_BLOCK_PRIVATE_IPS and RPC_ALLOWED_HOSTS: which RPC URLs a file or a PATCH may name; SECRET_REFS_ALLOWED: which
 * variables its references may name. `keyVariables`: the variables RELAYER_SYNC_FILE reads relayers' keys from.
 */
export function policyFromEnv(env: Env, keyVariables: readonly string[] = []): UrlPolicy {
  const allowedHosts = (env.RPC_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
  let pairs;
  try {
    pairs = parseAllowList(env.SECRET_REFS_ALLOWED);
  } catch (err) {
    if (err instanceof AllowListError) throw new ConfigError(err.message);
    throw err;
  }
  const denied = (name: string): boolean => NOT_SECRETS.test(name) || keyVariables.includes(name);
  return { blockPrivate: flag(env, 'RPC_BLOCK_PRIVATE_IPS'), allowedHosts, secrets: allowedLookup(pairs, env, denied) };
}

/**
 * Variables a secret reference in rpc_urls never resolves, whatever SECRET_REFS_ALLOWED says: netcfg's own settings
 * and the proxy variables, whose values a file could otherwise send to the prober or show to a revealing token.
 */
const NOT_SECRETS = new RegExp(
  '^(NETCFG_.*|API_KEY|API_TOKENS_.*|CONFIG_DIR|GIT_.*|HOST|PORT|INDEX_CACHE|LOG_LEVEL|RELAYER_SYNC_.*|SECRET_REFS_ALLOWED|REQUIRE_IF_MATCH|WATCH_POLL.*|' +
    'LOCK_STALE_MS|(HEADERS|REQUEST|KEEP_ALIVE)_TIMEOUT_MS|RPC_(ALLOWED_HOSTS|BLOCK_PRIVATE_IPS|PROBE_.*|AUTO_DISABLE.*)|(HTTPS?|ALL|NO)_PROXY)$',
  'i',
);

export function configFromEnv(env: Env): Config {
  const host = env.HOST || '127.0.0.1';
  const apiKey = apiKeyOf(env.API_KEY);
  if (apiKey !== undefined && apiKey.length < MIN_API_KEY_LENGTH) {
    throw new ConfigError(`API_KEY must be at least ${MIN_API_KEY_LENGTH} characters long (it has ${apiKey.length}); generate one with: openssl rand -hex 32`);
  }
  const apiTokensFile = env.API_TOKENS_FILE || null;
  if (apiKey === undefined && apiTokensFile === null && !isLoopback(host)) {
    throw new ConfigError(`HOST is ${host}, which is not a loopback address, and API_KEY is not set (nor API_TOKENS_FILE); set one of them to serve beyond this machine.`);
  }
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${env.LOG_LEVEL}".`);
  return {
    host,
    port: int(env, 'PORT', 3000, 0, 65535),
    configDir: env.CONFIG_DIR || 'config/networks',
    apiKey,
    logLevel,
    requireIfMatch: flag(env, 'REQUIRE_IF_MATCH'),
    policy: policyFromEnv(env, relayerKeyVariables(env)),
    watchPoll: flag(env, 'WATCH_POLL'),
    watchPollIntervalMs: int(env, 'WATCH_POLL_INTERVAL_MS', 1000, 50, 60_000),
    lockStaleMs: int(env, 'LOCK_STALE_MS', 5000, 2000, 600_000),
    gitCommit: flag(env, 'GIT_COMMIT'),
    gitAuthor: { name: env.GIT_AUTHOR_NAME || 'netcfg', email: env.GIT_AUTHOR_EMAIL || 'netcfg@localhost' },
    gitSync: flag(env, 'GIT_SYNC') ? { intervalMs: int(env, 'GIT_SYNC_INTERVAL_MS', 5000, 100, 3_600_000), remoteTimeoutMs: int(env, 'GIT_REMOTE_TIMEOUT_MS', 10_000, 500, 120_000) } : null,
    proposals: proposalsOf(env),
    webhookSecret: env.GIT_WEBHOOK_SECRET || undefined,
    probeOnPatch: oneOf(env, 'RPC_PROBE_ON_PATCH', ['off', 'warn', 'reject'] as const, 'off'),
    probeIntervalMs: env.RPC_PROBE_INTERVAL_MS ? int(env, 'RPC_PROBE_INTERVAL_MS', 60_000, 1000, 86_400_000) : null,
    autoHeal: autoHealOf(env),
    indexCache: !env.INDEX_CACHE ? undefined : ['off', 'false', 'none'].includes(env.INDEX_CACHE.toLowerCase()) ? null : env.INDEX_CACHE,
    apiTokensFile,
    apiTokensGraceMs: int(env, 'API_TOKENS_GRACE_MS', DEFAULT_TOKENS_GRACE_MS, 0, 604_800_000),
    relayerSync: relayerSyncFromEnv(env),
    timeouts: {
      headersMs: int(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
      requestMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
      keepAliveMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    },
  };
}

/** GitHub's and Gitea's `owner/name`; GitLab's project path, with its subgroups. */
const REPO_SHAPE = { two: /^[\w.-]+\/[\w.-]+$/, path: /^[\w.-]+(\/[\w.-]+)+$/ };

/** GIT_PROPOSALS and its companions, each wrong or missing one refused in its own sentence; the token never shown. */
function proposalsOf(env: Env): Config['proposals'] {
  const proposeOnly = flag(env, 'GIT_PROPOSE_ONLY');
  if (!env.GIT_PROPOSALS) {
    if (proposeOnly) {
      throw new ConfigError('GIT_PROPOSE_ONLY needs GIT_PROPOSALS: without a forge to propose on, every change would go straight to the branch.');
    }
    return null;
  }
  const kind = oneOf(env, 'GIT_PROPOSALS', FORGE_KINDS, 'github');
  if (!flag(env, 'GIT_SYNC')) throw new ConfigError('GIT_PROPOSALS needs GIT_SYNC: a proposal is a branch pushed to the remote netcfg follows.');
  const url = (env.GIT_FORGE_URL ?? '').trim().replace(/\/+$/, '');
  const example = { github: 'https://api.github.com', gitlab: 'https://gitlab.example/api/v4', gitea: 'https://gitea.example/api/v1' }[kind];
  if (url === '') throw new ConfigError(`GIT_PROPOSALS=${kind} needs GIT_FORGE_URL, the forge's API root (such as ${example}).`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`GIT_FORGE_URL must be the forge's http(s) API root (such as ${example}); got "${redactText(url)}".`);
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || parsed.username || parsed.password || parsed.search || parsed.hash) {
    const root = `the forge's http(s) API root without credentials, query or fragment (such as ${example})`;
    throw new ConfigError(`GIT_FORGE_URL must be ${root}; got "${redactText(url)}".`);
  }
  const repo = (env.GIT_FORGE_REPO ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (!(kind === 'gitlab' ? REPO_SHAPE.path : REPO_SHAPE.two).test(repo)) {
    const shape = kind === 'gitlab' ? "the project's path (group/name, or group/subgroup/name)" : 'owner/name';
    throw new ConfigError(`GIT_FORGE_REPO must be ${shape}; got "${env.GIT_FORGE_REPO ?? ''}".`);
  }
  const token = (env.GIT_FORGE_TOKEN ?? '').trim();
  if (token === '') throw new ConfigError(`GIT_PROPOSALS=${kind} needs GIT_FORGE_TOKEN, the forge's token (docs/proposals.md says which rights it needs).`);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(token)) {
    throw new ConfigError('GIT_FORGE_TOKEN holds whitespace or control characters inside it, which no HTTP header can carry.');
  }
  return { kind, url: parsed.href.replace(/\/+$/, ''), repo, token, proposeOnly };
}

/** RPC_AUTO_DISABLE's settings; its decisions are commits, so it needs the live prober and GIT_COMMIT or GIT_SYNC. */
function autoHealOf(env: Env): HealOptions | null {
  if (!flag(env, 'RPC_AUTO_DISABLE')) return null;
  if (!env.RPC_PROBE_INTERVAL_MS) throw new ConfigError('RPC_AUTO_DISABLE needs the live prober: set RPC_PROBE_INTERVAL_MS.');
  if (!flag(env, 'GIT_COMMIT') && !flag(env, 'GIT_SYNC')) throw new ConfigError('RPC_AUTO_DISABLE needs GIT_COMMIT or GIT_SYNC: each change it makes is a commit, and its commits are the record it restores from.');
  return {
    probes: int(env, 'RPC_AUTO_DISABLE_PROBES', DEFAULT_HEAL.probes, 1, 1000),
    spanMs: int(env, 'RPC_AUTO_DISABLE_MS', DEFAULT_HEAL.spanMs, 0, 86_400_000),
    maxPerHour: int(env, 'RPC_AUTO_DISABLE_MAX_PER_HOUR', DEFAULT_HEAL.maxPerHour, 1, 10_000),
  };
}

/** The variables RELAYER_SYNC_FILE reads relayers' keys from (relayerSyncFromEnv reports what is wrong with the file). */
function relayerKeyVariables(env: Env): string[] {
  if (!env.RELAYER_SYNC_FILE) return [];
  try {
    return parseTargetsFile(readFileSync(env.RELAYER_SYNC_FILE, 'utf8')).targets.map((t) => t.apiKeyEnv);
  } catch {
    return [];
  }
}

/** RELAYER_SYNC_FILE read and checked, each key taken from the variable its relayer names (trimmed, never from the file). */
function relayerSyncFromEnv(env: Env): Config['relayerSync'] {
  const file = env.RELAYER_SYNC_FILE;
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`RELAYER_SYNC_FILE ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  const { targets, problems } = parseTargetsFile(text);
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`).join('\n'));
  const resolved = targets.map(({ name, url, apiKeyEnv, networks, selfHeal }) => {
    // netcfg's own settings (its admin key, its git credentials) are never sent to a relayer.
    if (NOT_SECRETS.test(apiKeyEnv)) throw new ConfigError(`${apiKeyEnv}, named as the key of relayer ${name} in RELAYER_SYNC_FILE, is one of netcfg's own settings; give the relayer's key its own variable.`);
    const apiKey = (env[apiKeyEnv] ?? '').trim();
    if (apiKey === '') throw new ConfigError(`${apiKeyEnv}, the key of relayer ${name} in RELAYER_SYNC_FILE, is not set.`);
    return { name, url, apiKey, networks, selfHeal };
  });
  const intervalMs = int(env, 'RELAYER_SYNC_INTERVAL_MS', DEFAULT_SYNC_INTERVAL_MS, 100, 86_400_000);
  const lease = { leaseMs: int(env, 'RELAYER_SYNC_LEASE_MS', DEFAULT_LEASE_MS, 300, 3_600_000), replica: replicaIdOf(env) };
  const timeoutMs = int(env, 'RELAYER_SYNC_TIMEOUT_MS', 10_000, 100, 120_000);
  // A call the old holder started must end before a new holder's first call (lease.ts).
  if (timeoutMs > (lease.leaseMs * 3) / 4) {
    throw new ConfigError(`RELAYER_SYNC_TIMEOUT_MS (${timeoutMs}) must be at most three quarters of RELAYER_SYNC_LEASE_MS (${lease.leaseMs}).`);
  }
  return { targets: resolved, intervalMs, timeoutMs, lease };
}

/** NETCFG_REPLICA_ID: the name this replica holds the relayer lease under (default: host name and pid, unique per process). */
function replicaIdOf(env: Env): string {
  const id = (env.NETCFG_REPLICA_ID ?? '').trim() || `${os.hostname()}-${process.pid}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/.test(id)) {
    throw new ConfigError(`NETCFG_REPLICA_ID must be 1-128 letters, digits, ".", "_", ":" or "-"; got "${id}".`);
  }
  return id;
}
