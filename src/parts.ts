/**
 * netcfg's long-lived parts, built from the settings main read (src/config) and wired to each other:
 * the store, the tokens, the live prober and self-healing, the relayer sync with its lease and
 * targets file, proposals and the metrics. main.ts listens, starts them once the store is loaded
 * and closes them in order; nothing here reads the environment.
 */
import path from 'node:path';
import type { Config } from './config/index.js';
import type { createLogger } from './log.js';
import { DEFAULT_PROBER, Prober } from './probe/prober.js';
import { urlCheckOf } from './probe/url-check.js';
import { LiveProber, jobsOf } from './probe/live-prober.js';
import { redactUrl } from './redact.js';
import { revealedNetworkOf, defaultCachePath, NetworkStore } from './store/index.js';
import { RelayerSync } from './relayer/sync/relayer-sync.js';
import { TargetsFollow } from './follow/relayer-targets.js';
import { Lease } from './relayer/lease/lease.js';
import { TokenSet } from './access/token-set.js';
import { TokensFollow } from './access/tokens-follow.js';
import { desiredFromStore } from './relayer/sync/store-desired.js';
import { AutoHeal } from './probe/auto-heal.js';
import { healStoreOf } from './probe/heal-store.js';
import { Metrics } from './metrics/metrics.js';
import { forgeFromConfig } from './forge/forge-from-config.js';
import { Proposals } from './proposals/proposals.js';

export type Log = ReturnType<typeof createLogger>;

/** Every part, built and wired; none started yet (but the tokens file, followed from here on). */
export async function partsOf(config: Config, log: Log) {
  const root = path.resolve(config.configDir);
  const access =
    config.apiTokensFile === null
      ? null
      : await tokensOf(config.apiTokensFile, config.apiKey, config.apiTokensGraceMs, log);
  const store = new NetworkStore({
    root,
    policy: config.policy,
    watch: { poll: config.watchPoll, pollIntervalMs: config.watchPollIntervalMs },
    lock: { staleMs: config.lockStaleMs },
    gitCommit: config.gitCommit,
    gitAuthor: config.gitAuthor,
    indexCache: config.indexCache === null ? undefined : (config.indexCache ?? defaultCachePath(root)),
    ...(config.gitSync
      ? { gitSync: { ...config.gitSync, onDropped: (note) => log.error({ dropped: note }, note.message) } }
      : {}),
    ...(config.probeOnPatch === 'off'
      ? {}
      : {
          urlCheck: urlCheckOf(
            new Prober({ ...DEFAULT_PROBER, blockPrivate: config.policy.blockPrivate }),
            config.probeOnPatch,
          ),
        }),
    onError: (err) => log.error({ err }, 'store error'),
  });
  // The first load adds every network; log changes after it, not thousands of lines at start.
  store.subscribe((change) => {
    if (store.loaded) log.info({ change }, 'index change');
  });
  const live = config.probeIntervalMs === null ? undefined : liveProberOf(store, config);
  live?.onChange((change) => log.info({ rpc_health: { ...change, url: redactUrl(change.url) } }, 'rpc health change'));
  const heal = live && config.autoHeal ? new AutoHeal(healStoreOf(store), config.autoHeal, log) : undefined;
  if (heal) live?.onProbed((probe) => heal.heard(probe));
  // Replicas sharing the targets file elect one speaker; the one that takes the lease passes at once.
  const lease =
    config.relayerSync &&
    new Lease({
      ...config.relayerSync.lease,
      callMs: config.relayerSync.timeoutMs,
      storage: store.relayerLease(),
      log,
    });
  const syncOptions = config.relayerSync && {
    ...config.relayerSync,
    maxBytes: 16 * 1024 * 1024,
    log,
    speaker: lease || undefined,
  };
  const relayers = syncOptions && new RelayerSync(syncOptions.targets, desiredFromStore(store), syncOptions);
  if (lease && relayers) lease.onChange((holds) => void (holds && relayers.passNow()));
  const targetsFollow =
    config.relayerSync && relayers
      ? new TargetsFollow(
          config.relayerSync.file,
          config.relayerSync.keys,
          (targets) => relayers.replaceTargets(targets),
          log,
        )
      : undefined;
  relayers?.onChange(({ name, state, counts, last_error }) =>
    log.info({ relayer: { name, state, counts, last_error } }, 'relayer sync state'),
  );
  const proposals = proposalsOf(store, config, log);
  const metrics = new Metrics({ store, prober: live, autoHeal: heal, relayers: relayers ?? undefined });
  return { access, store, live, heal, lease, relayers, targetsFollow, proposals, metrics };
}

/** The live prober over what the store serves, started once the store is loaded. */
function liveProberOf(store: NetworkStore, config: Config): LiveProber {
  const prober = new Prober({ ...DEFAULT_PROBER, blockPrivate: config.policy.blockPrivate });
  const networks = function* () {
    for (const id of store.ids()) yield { id, fields: revealedNetworkOf(store.get(id)) };
  };
  return new LiveProber(prober, () => jobsOf(networks(), config.autoHeal !== null), config.probeIntervalMs ?? 60_000);
}

/** GIT_PROPOSALS: changes opened as pull requests on the forge, each call with the remote deadline. */
function proposalsOf(store: NetworkStore, config: Config, log: Log): Proposals | undefined {
  if (!config.proposals || !config.gitSync) return undefined;
  const forge = forgeFromConfig(config.proposals, { timeoutMs: config.gitSync.remoteTimeoutMs });
  const onError = (err: unknown, message: string): void => log.error({ err }, message);
  return new Proposals({
    store,
    forge,
    proposeOnly: config.proposals.proposeOnly,
    probed: config.probeOnPatch !== 'off',
    onError,
  });
}

/** API_TOKENS_FILE's tokens (API_KEY's among them), followed while running; a file that was never good refuses the start. */
async function tokensOf(
  file: string,
  apiKey: string | undefined,
  graceMs: number,
  log: Log,
): Promise<{ tokens: TokenSet; watch: TokensFollow }> {
  const set = new TokenSet([], apiKey);
  const watch = new TokensFollow(file, set, graceMs, log);
  const problems = await watch.first();
  if (problems !== null) {
    process.stderr.write(`netcfg: API_TOKENS_FILE cannot be used:\n${problems.join('\n')}\n`);
    process.exit(2);
  }
  watch.start();
  return { tokens: set, watch };
}
