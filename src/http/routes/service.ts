/**
 * The routes that need no API key: liveness and readiness (orchestrators probe them without one)
 * and the published contract (the OpenAPI document and the JSON Schemas, serialised once).
 * Readiness is 200 while networks are served (invalid files only make it "degraded": one bad file
 * merged in git must not take every replica out of service) and 503 before the first load, when
 * the config folder is missing or unreadable, or when the watcher is not running. What the body
 * tells depends on who asks (readiness-view.ts); the status code never does.
 */
import type Router from '@koa/router';
import type { NetworkStore, Schemas } from '../../store/index.js';
import { buildOpenApi } from '../openapi/openapi.js';
import { mayAct, type TokenSet } from '../../access/token-set.js';
import { principalOf } from '../auth.js';
import { matchesAny } from '../../id-glob.js';
import { readinessFor, withWorstStatus, type ReadinessAnswer } from './readiness-view.js';
import { relayersComponent, type RelayersView } from './relayers.js';
import { rpcComponent, type AutoHealView, type RpcHealthView } from './rpc-health.js';

/** API_TOKENS_FILE as readiness shows it: how many tokens, why the file is not used, and its grace; never a name. */
export interface AccessView {
  readonly size: number;
  state(): { problem: string | null; grace_ends_at: string | null; refusing_since: string | null };
}

/** The readiness `access` component: degraded while the last good tokens hold despite the file, unhealthy once named tokens are refused. */
export function accessComponent(view: AccessView): Record<string, unknown> {
  const { problem, grace_ends_at, refusing_since } = view.state();
  if (problem === null) return { status: 'healthy', tokens: view.size, problem: null };
  if (refusing_since !== null)
    return { status: 'unhealthy', tokens: view.size, problem, refusing_named_tokens_since: refusing_since };
  return { status: 'degraded', tokens: view.size, problem, grace_ends_at };
}

interface HealthViews {
  rpcHealth?: RpcHealthView | undefined;
  autoHeal?: AutoHealView | undefined;
  relayers?: RelayersView | undefined;
  relayerTargets?: { state(): { problem: string | null } } | undefined;
  access?: AccessView | undefined;
  /** GIT_PROPOSALS: the forge's last answer (the start's check, then each call). */
  proposals?: { component(): Record<string, unknown> } | undefined;
  /** The tokens readiness tells more to; null: no token configured, everyone is told everything. */
  tokens?: TokenSet | null;
}

export function healthRoutes(router: Router, store: NetworkStore, views: HealthViews = {}): void {
  const { rpcHealth, autoHeal, relayers, relayerTargets, access, proposals, tokens = null } = views;
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
      ...(relayers
        ? { relayers: relayersComponent(relayers, Date.now(), relayerTargets?.state().problem ?? null) }
        : {}),
      ...(access ? { access: accessComponent(access) } : {}),
      ...(proposals ? { proposals: proposals.component() } : {}),
    };
    const full = withWorstStatus({ ...report, components } as ReadinessAnswer);
    // A token is looked at when sent; none, or a wrong one, is the anonymous view, never a 401.
    const principal = tokens === null ? null : principalOf(tokens, ctx);
    const networks = principal?.networks ?? null;
    const scope = networks === null ? null : (id: string) => matchesAny(networks, id);
    const viewer =
      tokens === null || (principal && mayAct(principal, 'admin')) ? 'everything' : principal ? 'read' : 'anonymous';
    ctx.body = readinessFor(full, viewer, scope);
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
