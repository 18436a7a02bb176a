/**
 * GET /metrics: netcfg's metrics in Prometheus' text format (src/metrics/ builds them), and the
 * requests as the metrics see them. Who may read them: with no token configured, anyone who
 * reaches the port (loopback only, like every route then); with tokens, a token of the read role
 * (or above) whose scope is every network, since the metrics name every network and URL: a token
 * scoped to some networks is refused with a 403 saying so, rather than shown a part of them. No
 * label or value holds a secret, a key or a token name.
 */
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { NetcfgError } from '../../errors.js';
import { scopeOf, type Guard } from '../auth.js';

/** What the HTTP layer needs of the metrics: the exposition, and where each request is told as it ends. */
export interface MetricsView {
  readonly contentType: string;
  text(): Promise<string>;
  observeRequest(route: string | null, method: string, status: number, seconds: number): void;
}

/**
 * A request's route as the metrics name it (@koa/router's documented `ctx.routerPath`: the template
 * that took it, bare paths named by their /api/v1 twin); null when no route did.
 */
export function templateOf(ctx: Context): string | null {
  const path = (ctx as Context & { routerPath?: string }).routerPath;
  if (path === undefined) return null;
  return path.startsWith('/networks') ? `/api/v1${path}` : path;
}

/** A token scoped to some networks may not read what names them all. */
async function everyNetwork(ctx: Context, next: Next): Promise<void> {
  if (scopeOf(ctx) !== null)
    throw new NetcfgError(
      'FORBIDDEN',
      "The metrics name every network, so they need a token whose scope is every network; this token's networks are limited.",
    );
  await next();
}

export function metricsRoutes(router: Router, guard: Guard, view: MetricsView): void {
  router.get('/metrics', ...guard('read'), everyNetwork, async (ctx: Context) => {
    const text = await view.text();
    ctx.type = view.contentType;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = text;
  });
}
