/**
 * The process: reads the environment, builds the store, starts the watcher and listens.
 * Nothing else reads process.env. SIGTERM/SIGINT stop accepting, finish requests in flight,
 * close the watcher and exit 0.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { configFromEnv, ConfigError, type Config } from './config.js';
import { createApp } from './http/app.js';
import { addressOf, closeGracefully, listen } from './http/server.js';
import { createLogger } from './log.js';
import { logUnhandledRejections, onStopSignal } from './process-handlers.js';
import { DEFAULT_PROBER, Prober } from './probe/prober.js';
import { urlCheckOf } from './probe/url-check.js';
import { LiveProber, jobsOf } from './probe/live-prober.js';
import { loadConsoleAssets } from './console-assets.js';
import { redactUrl } from './redact.js';
import { revealedNetworkOf, defaultCachePath, NetworkStore } from './store/index.js';
import { RelayerSync } from './relayer/sync/relayer-sync.js';
import { TargetsFollow } from './follow/relayer-targets.js';
import { Lease } from './relayer/sync/lease.js';
import { TokenSet } from './access/token-set.js';
import { TokensFollow } from './access/tokens-follow.js';
import { desiredFromStore } from './relayer/sync/store-desired.js';
import { AutoHeal } from './probe/auto-heal.js';
import { healStoreOf } from './probe/heal-store.js';
import { Metrics } from './metrics/metrics.js';
import { forgeFromConfig } from './forge/forge-from-config.js';
import { Proposals } from './proposals/proposals.js';
import { NetworkCreation } from './registry/creation.js';

export async function serve(config: Config): Promise<void> {
  const log = createLogger(config.logLevel);
  const root = path.resolve(config.configDir);
  if (!config.apiKey && !config.apiTokensFile)
    log.warn(
      { host: config.host },
      'API_KEY is not set: the network routes are open to anyone who can reach this loopback address',
    );
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
  const shutdown = new AbortController();
  logUnhandledRejections(log);
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
  const app = createApp(store, {
    apiKey: config.apiKey,
    tokens: access?.tokens,
    access: access?.watch,
    requireIfMatch: config.requireIfMatch,
    webhookSecret: config.webhookSecret,
    logger: log,
    shutdown: shutdown.signal,
    rpcHealth: live,
    autoHeal: heal,
    relayers: relayers ?? undefined,
    relayerTargets: targetsFollow,
    consoleAssets: loadConsoleAssets(),
    metrics,
    proposals,
    creation: new NetworkCreation({
      registryFile: config.chainRegistryFile,
      prober: new Prober({ ...DEFAULT_PROBER, blockPrivate: config.policy.blockPrivate }),
      policy: config.policy,
    }),
  });
  const server = await listen(app, config.host, config.port, config.timeouts);
  log.info({ url: addressOf(server), config_dir: root }, 'listening');
  const started = Date.now();
  void store.start().then(
    () => {
      const ready = store.readiness();
      log.info(
        {
          networks: ready.components.index.networks,
          invalid_files: ready.components.index.invalid_files.length,
          ms: Date.now() - started,
        },
        'ready',
      );
      live?.start();
      // A refused token or repository shows in readiness and here; each proposal answers the forge's error.
      void proposals
        ?.check()
        .then(
          (problem) =>
            problem !== null &&
            log.warn({ proposals: problem }, 'the forge refused the check of its token and repository'),
        );
      lease?.start();
      relayers?.start();
      void targetsFollow?.start();
    },
    (err: unknown) => {
      log.fatal({ err }, 'cannot start');
      process.exit(2);
    },
  );

  onStopSignal(async (signal) => {
    log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => process.exit(1), 10_000);
    deadline.unref();
    shutdown.abort(); // end change streams, which would otherwise keep the server open
    // Requests in flight finish; a write still waiting after 4 s for a remote that does not
    // answer is refused (its git killed) so the server can close before the deadline.
    const closed = closeGracefully(server);
    await Promise.race([closed, delay(4000)]);
    // The talkers first, so nothing new reaches the store; each ends its calls in flight.
    await live?.close();
    await heal?.close();
    await targetsFollow?.close();
    await relayers?.close();
    await lease?.close(); // given up once nothing is in flight, so another replica takes over at once
    await access?.watch.close();
    await store.close(0);
    await closed;
    metrics.close();
    log.info('stopped');
    process.exitCode = 0;
    setImmediate(() => process.exit(0));
  });
}

export async function main(): Promise<void> {
  let config: Config;
  try {
    config = configFromEnv(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`netcfg: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  await serve(config);
}

/**
 * Whether this module is the program node was asked to run (node dist/src/main.js), not one the CLI
 * imports. Compared as real paths: a release folder reached through a link (`/srv/current ->
 * releases/42`) or a path holding a space must start the server too.
 */
function runDirectly(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (runDirectly()) {
  main().catch((err: unknown) => {
    process.stderr.write(`netcfg: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}

/** The live prober over what the store serves, started once the store is loaded. */
function liveProberOf(store: NetworkStore, config: Config): LiveProber {
  const prober = new Prober({ ...DEFAULT_PROBER, blockPrivate: config.policy.blockPrivate });
  const networks = function* () {
    for (const id of store.ids()) yield { id, fields: revealedNetworkOf(store.get(id)) };
  };
  return new LiveProber(prober, () => jobsOf(networks(), config.autoHeal !== null), config.probeIntervalMs ?? 60_000);
}

type Log = ReturnType<typeof createLogger>;

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
