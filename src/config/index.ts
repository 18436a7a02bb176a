/**
 * The environment, read in one place. Everything netcfg can be told from outside is here, with its
 * default; src/main.ts (and `netcfg serve`, whose flags override these) is the only caller.
 */
import { redactText } from '../redact.js';
import type { UrlPolicy } from '../store/index.js';
import { DEFAULT_HEAL, type HealOptions } from '../probe/auto-heal.js';
import { AllowListError, allowedLookup, namedByAny, parseAllowList, type AllowedPair } from './secret-refs-allowed.js';
import { ConfigError, flag, int, isNetcfgSetting, oneOf, type Env } from './values.js';
import { relayerKeyVariables, relayerSyncFromEnv, type RelayerSyncSettings } from './relayer.js';

export { ConfigError, type Env } from './values.js';
import { DEFAULT_TOKENS_GRACE_MS } from '../access/tokens-follow.js';
import { FORGE_KINDS, type ForgeSettings } from '../forge/forge.js';

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
  /** CHAIN_REGISTRY_FILE: the chain registry POST /networks fills from (an ethereum-lists chains.json); null: the shipped copy. */
  chainRegistryFile: string | null;
  /** API_TOKENS_GRACE_MS: how long a tokens file missing or not parsing keeps its last good tokens; then named tokens are refused. */
  apiTokensGraceMs: number;
  /** RELAYER_SYNC_FILE: the relayers kept in sync (keys read from the variables it names), every RELAYER_SYNC_INTERVAL_MS; null: off. */
  relayerSync: RelayerSyncSettings | null;
}

export const MIN_API_KEY_LENGTH = 32;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

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
    throw new ConfigError(
      'API_KEY holds whitespace or control characters inside it (or nothing else), which no Authorization ' +
        'header can carry; generate one with: openssl rand -hex 32',
    );
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
  const allowedHosts = (env.RPC_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  const pairs = allowListOf(env);
  const denied = (name: string): boolean => isNetcfgSetting(name) || keyVariables.includes(name);
  return { blockPrivate: flag(env, 'RPC_BLOCK_PRIVATE_IPS'), allowedHosts, secrets: allowedLookup(pairs, env, denied) };
}

/** SECRET_REFS_ALLOWED's pairs. */
function allowListOf(env: Env): AllowedPair[] {
  try {
    return parseAllowList(env.SECRET_REFS_ALLOWED);
  } catch (err) {
    if (err instanceof AllowListError) throw new ConfigError(err.message);
    throw err;
  }
}

export function configFromEnv(env: Env): Config {
  const host = env.HOST || '127.0.0.1';
  const apiKey = apiKeyOf(env.API_KEY);
  if (apiKey !== undefined && apiKey.length < MIN_API_KEY_LENGTH) {
    throw new ConfigError(
      `API_KEY must be at least ${MIN_API_KEY_LENGTH} characters long (it has ${apiKey.length}); generate one with: openssl rand -hex 32`,
    );
  }
  const apiTokensFile = env.API_TOKENS_FILE || null;
  if (apiKey === undefined && apiTokensFile === null && !isLoopback(host)) {
    throw new ConfigError(
      `HOST is ${host}, which is not a loopback address, and API_KEY is not set (nor API_TOKENS_FILE); set one of them to serve beyond this machine.`,
    );
  }
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${env.LOG_LEVEL}".`);
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
    gitSync: flag(env, 'GIT_SYNC')
      ? {
          intervalMs: int(env, 'GIT_SYNC_INTERVAL_MS', 5000, 100, 3_600_000),
          remoteTimeoutMs: int(env, 'GIT_REMOTE_TIMEOUT_MS', 10_000, 500, 120_000),
        }
      : null,
    proposals: proposalsOf(env),
    webhookSecret: env.GIT_WEBHOOK_SECRET || undefined,
    probeOnPatch: oneOf(env, 'RPC_PROBE_ON_PATCH', ['off', 'warn', 'reject'] as const, 'off'),
    probeIntervalMs: env.RPC_PROBE_INTERVAL_MS ? int(env, 'RPC_PROBE_INTERVAL_MS', 60_000, 1000, 86_400_000) : null,
    autoHeal: autoHealOf(env),
    indexCache: !env.INDEX_CACHE
      ? undefined
      : ['off', 'false', 'none'].includes(env.INDEX_CACHE.toLowerCase())
        ? null
        : env.INDEX_CACHE,
    apiTokensFile,
    chainRegistryFile: env.CHAIN_REGISTRY_FILE || null,
    apiTokensGraceMs: int(env, 'API_TOKENS_GRACE_MS', DEFAULT_TOKENS_GRACE_MS, 0, 604_800_000),
    relayerSync: relayerSyncFromEnv(env, (name) => namedByAny(allowListOf(env), name)),
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
      throw new ConfigError(
        'GIT_PROPOSE_ONLY needs GIT_PROPOSALS: without a forge to propose on, every change would go straight to the branch.',
      );
    }
    return null;
  }
  const kind = oneOf(env, 'GIT_PROPOSALS', FORGE_KINDS, 'github');
  if (!flag(env, 'GIT_SYNC'))
    throw new ConfigError('GIT_PROPOSALS needs GIT_SYNC: a proposal is a branch pushed to the remote netcfg follows.');
  const url = (env.GIT_FORGE_URL ?? '').trim().replace(/\/+$/, '');
  const example = {
    github: 'https://api.github.com',
    gitlab: 'https://gitlab.example/api/v4',
    gitea: 'https://gitea.example/api/v1',
  }[kind];
  if (url === '')
    throw new ConfigError(`GIT_PROPOSALS=${kind} needs GIT_FORGE_URL, the forge's API root (such as ${example}).`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(
      `GIT_FORGE_URL must be the forge's http(s) API root (such as ${example}); got "${redactText(url)}".`,
    );
  }
  if (
    !['http:', 'https:'].includes(parsed.protocol) ||
    parsed.username ||
    parsed.password ||
    parsed.search ||
    parsed.hash
  ) {
    const root = `the forge's http(s) API root without credentials, query or fragment (such as ${example})`;
    throw new ConfigError(`GIT_FORGE_URL must be ${root}; got "${redactText(url)}".`);
  }
  const repo = (env.GIT_FORGE_REPO ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (!(kind === 'gitlab' ? REPO_SHAPE.path : REPO_SHAPE.two).test(repo)) {
    const shape = kind === 'gitlab' ? "the project's path (group/name, or group/subgroup/name)" : 'owner/name';
    throw new ConfigError(`GIT_FORGE_REPO must be ${shape}; got "${env.GIT_FORGE_REPO ?? ''}".`);
  }
  const token = (env.GIT_FORGE_TOKEN ?? '').trim();
  if (token === '')
    throw new ConfigError(
      `GIT_PROPOSALS=${kind} needs GIT_FORGE_TOKEN, the forge's token (docs/proposals.md says which rights it needs).`,
    );
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(token)) {
    throw new ConfigError(
      'GIT_FORGE_TOKEN holds whitespace or control characters inside it, which no HTTP header can carry.',
    );
  }
  return { kind, url: parsed.href.replace(/\/+$/, ''), repo, token, proposeOnly };
}

/** RPC_AUTO_DISABLE's settings; its decisions are commits, so it needs the live prober and GIT_COMMIT or GIT_SYNC. */
function autoHealOf(env: Env): HealOptions | null {
  if (!flag(env, 'RPC_AUTO_DISABLE')) return null;
  if (!env.RPC_PROBE_INTERVAL_MS)
    throw new ConfigError('RPC_AUTO_DISABLE needs the live prober: set RPC_PROBE_INTERVAL_MS.');
  if (!flag(env, 'GIT_COMMIT') && !flag(env, 'GIT_SYNC'))
    throw new ConfigError(
      'RPC_AUTO_DISABLE needs GIT_COMMIT or GIT_SYNC: each change it makes is a commit, and its commits are the record it restores from.',
    );
  return {
    probes: int(env, 'RPC_AUTO_DISABLE_PROBES', DEFAULT_HEAL.probes, 1, 1000),
    spanMs: int(env, 'RPC_AUTO_DISABLE_MS', DEFAULT_HEAL.spanMs, 0, 86_400_000),
    maxPerHour: int(env, 'RPC_AUTO_DISABLE_MAX_PER_HOUR', DEFAULT_HEAL.maxPerHour, 1, 10_000),
  };
}
