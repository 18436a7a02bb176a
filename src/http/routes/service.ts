/**
 * The routes that need no API key: liveness and readiness (orchestrators probe them without one)
 * and the published contract (the OpenAPI document and the JSON Schemas, serialised once).
 * Readiness is 200 while networks are served (invalid files only make it "degraded": one bad file
 * merged in git must not take every replica out of service) and 503 before the first load, when
 * the config folder is missing or unreadable, or when the watcher is not running.
 */
import type Router from '@koa/router';
import type { NetworkStore } from '../../store/network-store.js';
import type { Schemas } from '../../store/validation/schemas.js';
import { buildOpenApi } from '../openapi.js';
import { relayersComponent, type RelayersView } from './relayers.js';
import { rpcComponent, type AutoHealView, type RpcHealthView } from './rpc-health.js';

/** API_TOKENS_FILE as readiness shows it: how many tokens, and why its last change was not taken; never a name. */
export interface AccessView {
  readonly size: number;
  problem(): string | null;
}

export function healthRoutes(router: Router, store: NetworkStore, views: { rpcHealth?: RpcHealthView | undefined; autoHeal?: AutoHealView | undefined; relayers?: RelayersView | undefined; access?: AccessView | undefined } = {}): void {
  const { rpcHealth, autoHeal, relayers, access } = views;
  router.get('/api/v1/health', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'OK';
  });

  router.get('/api/v1/ready', (ctx) => {
    const report = store.readiness();
    ctx.status = report.ready ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    const components = {
      ...report.components,
      ...(rpcHealth ? { rpc: rpcComponent(rpcHealth, autoHeal) } : {}),
      ...(relayers ? { relayers: relayersComponent(relayers) } : {}),
      ...(access ? { access: { status: access.problem() ? 'degraded' : 'healthy', tokens: access.size, problem: access.problem() } } : {}),
    };
    ctx.body = { ...report, components };
  });
}

export function docRoutes(router: Router, schemas: Schemas): void {
  const documents: Record<string, string> = {
    '/api/v1/openapi.json': JSON.stringify(buildOpenApi(schemas)),
    '/api/v1/schemas/network.json': JSON.stringify(schemas.network),
    '/api/v1/schemas/update-network.json': JSON.stringify(schemas.updateNetwork),
  };
  for (const [path, body] of Object.entries(documents)) {
    router.get(path, (ctx) => {
      ctx.type = 'application/json';
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = body;
    });
  }
}
