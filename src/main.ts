/**
 * The process: reads netcfg's settings from the environment (nothing else does), builds its parts
 * (parts.ts), listens, and starts them once the store is loaded. SIGTERM/SIGINT stop accepting,
 * finish requests in flight, close the parts in order and exit 0.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { configFromEnv, ConfigError, type Config } from './config/index.js';
import { createApp } from './http/app.js';
import { addressOf, closeGracefully, listen } from './http/server.js';
import { createLogger } from './log.js';
import { logUnhandledRejections, onStopSignal } from './process-handlers.js';
import { DEFAULT_PROBER, Prober } from './probe/prober.js';
import { loadConsoleAssets } from './console-assets.js';
import { NetworkCreation } from './registry/creation.js';
import { partsOf } from './parts.js';

export async function serve(config: Config): Promise<void> {
  const log = createLogger(config.logLevel);
  const root = path.resolve(config.configDir);
  if (!config.apiKey && !config.apiTokensFile)
    log.warn(
      { host: config.host },
      'API_KEY is not set: the network routes are open to anyone who can reach this loopback address',
    );
  const { access, store, live, heal, lease, relayers, targetsFollow, proposals, metrics } = await partsOf(config, log);
  const shutdown = new AbortController();
  logUnhandledRejections(log);
  // POST /api/v1/networks' own prober: its kept-alive connections are closed at shutdown with the other talkers'.
  const creationProber = new Prober({ ...DEFAULT_PROBER, blockPrivate: config.policy.blockPrivate });
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
      prober: creationProber,
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
    creationProber.close();
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
