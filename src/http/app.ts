/**
 * createApp(store, options): the Koa application over a store. No port, no environment: tests
 * drive it with supertest, src/main.ts listens with it.
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import { type NetworkStore, loadSchemas } from '../store/index.js';
import { OPEN, tokenGuard } from './auth.js';
import { TokenSet } from '../access/token-set.js';
import { requestFrame } from './request-frame.js';
import { eventRoutes } from './routes/events.js';
import { docRoutes, healthRoutes, type AccessView } from './routes/service.js';
import { networkRoutes } from './routes/networks.js';
import { exportRoutes } from './routes/export.js';
import { accessRoutes } from './routes/access.js';
import { relayerRoutes, type RelayersView } from './routes/relayers.js';
import { webhookRoutes } from './routes/webhooks.js';
import { silentLogger } from '../log.js';
import { rpcHealthRoutes, type AutoHealView, type RpcHealthView } from './routes/rpc-health.js';
import { consoleRoutes } from './routes/console.js';
import { metricsRoutes, type MetricsView } from './routes/metrics.js';
import type { ConsoleAssets } from '../console-assets.js';
import { INSTANCE_ID } from '../instance.js';
import { proposalRoutes, type ProposalsView } from './routes/proposals.js';
import { createRoutes } from './routes/create.js';
import type { NetworkCreation } from '../registry/creation.js';

export interface AppOptions {
  /** When set, network routes need `Authorization: Bearer <apiKey>` (an admin token named api-key). */
  apiKey?: string | undefined;
  /** API_TOKENS_FILE's tokens (with API_KEY's among them): each route needs a token whose role includes its own. */
  tokens?: TokenSet | undefined;
  /** API_TOKENS_FILE followed while running: readiness' `access` component. */
  access?: AccessView | undefined;
  /** REQUIRE_IF_MATCH: a PATCH without If-Match is a 428. */
  requireIfMatch?: boolean;
  logger?: Logger;
  /** Heartbeat period of the change stream (default 15 s). */
  heartbeatMs?: number;
  /** Aborted on shutdown: long-lived responses (the change stream) end so the server can close. */
  shutdown?: AbortSignal;
  /** GIT_WEBHOOK_SECRET: POST /api/v1/webhooks/git exists only with it. */
  webhookSecret?: string | undefined;
  /** RPC_PROBE_INTERVAL_MS: the live prober's findings (rpc-health route, readiness, change stream). */
  rpcHealth?: RpcHealthView | undefined;
  /** RPC_AUTO_DISABLE: what the prober disabled (rpc-health's auto_disabled_at and reason, readiness' rpc component). */
  autoHeal?: AutoHealView | undefined;
  /** RELAYER_SYNC_FILE: the relayer sync's state (its route, readiness, change stream). */
  relayers?: RelayersView | undefined;
  /** RELAYER_SYNC_FILE followed while running: why its last change was not taken, in readiness' `relayers` component. */
  relayerTargets?: { state(): { problem: string | null } } | undefined;
  /** The operator console's files: served at `/` when given (null: not built, `/` says so). */
  consoleAssets?: ConsoleAssets | null;
  /** The metrics (src/metrics/): GET /metrics, and every request observed. */
  metrics?: MetricsView | undefined;
  /** GIT_PROPOSALS: changes proposed as pull requests (src/proposals), their lists, readiness' `proposals` component. */
  proposals?: ProposalsView | undefined;
  /** This process's instance id (src/instance.ts): a request carrying it came from its own relayer sync. */
  instanceId?: string;
  /** POST /api/v1/networks and GET /api/v1/registry/chains (src/registry/creation.ts); absent: not served. */
  creation?: NetworkCreation | undefined;
}

export function createApp(store: NetworkStore, options: AppOptions = {}): Koa {
  const log = options.logger ?? silentLogger();
  const app = new Koa();
  app.proxy = false;
  app.silent = true; // errors are logged by our own handler, once
  const router = new Router();
  // Without a token there is no guard at all (not a pass-through): one step less on every read.
  const tokens = options.tokens ?? (options.apiKey ? new TokenSet([], options.apiKey) : null);
  const guard = tokens ? tokenGuard(tokens) : OPEN;
  const { proposals } = options;
  healthRoutes(router, store, {
    rpcHealth: options.rpcHealth,
    autoHeal: options.autoHeal,
    relayers: options.relayers,
    relayerTargets: options.relayerTargets,
    access: options.access,
    tokens,
    proposals,
  });
  docRoutes(router, loadSchemas());
  // Before the item routes: /networks/events would otherwise match /networks/:network_id.
  eventRoutes(router, store, guard, {
    heartbeatMs: options.heartbeatMs ?? 15_000,
    shutdown: options.shutdown ?? new AbortController().signal,
    rpcHealth: options.rpcHealth,
    relayers: options.relayers,
  });
  if (options.rpcHealth) rpcHealthRoutes(router, store, guard, options.rpcHealth, options.autoHeal);
  if (options.creation) createRoutes(router, store, guard, options.creation, proposals);
  networkRoutes(router, store, guard, { requireIfMatch: options.requireIfMatch ?? false, proposals });
  proposalRoutes(router, store, guard, proposals);
  exportRoutes(router, store, guard);
  accessRoutes(router, guard, { enabled: proposals !== undefined, propose_only: proposals?.proposeOnly === true });
  if (options.relayers) relayerRoutes(router, guard, options.relayers);
  if (options.webhookSecret) webhookRoutes(router, store, options.webhookSecret);
  if (options.consoleAssets !== undefined) consoleRoutes(router, options.consoleAssets);
  if (options.metrics) metricsRoutes(router, guard, options.metrics);
  app.use(requestFrame(log, { metrics: options.metrics, instanceId: options.instanceId ?? INSTANCE_ID }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
