/**
 * GET /metrics: netcfg's metrics in Prometheus' text format (src/metrics/ builds them), and the
 * requests as the metrics see them. Who may read them: with no token configured, anyone who
 * reaches the port (loopback only, like every route then); with tokens, a token of the read role
 * (or above) whose scope is every network, since the metrics name every network and URL: a token
 * scoped to some networks is refused with a 403 saying so, rather than shown a part of them. No
 * label or value holds a secret, a key or a token name.
 */
import type Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { NetcfgError } from '../../errors.js';
import { scopeOf, type Guard } from '../auth.js';

/** What the HTTP layer needs of the metrics: the exposition, and where each request is told as it ends. */
export interface MetricsView {
  readonly contentType: string;
  text(): Promise<string>;
  observeRequest(route: string | null, method: string, status: number, seconds: number): void;
}

/**
 * The first middleware of every route: its template (the /api/v1 one, for a route also served
 * bare) names the request. A route names itself because @koa/router documents no way to ask which
 * route took a request (its `_matchedRoute` is marked internal); a request no route took has no name.
 */
export function routeOf(paths: string | string[]): Middleware {
  const template = Array.isArray(paths) ? (paths[0] as string) : paths;
  return function namedRoute(ctx: Context, next: Next): Promise<void> {
    ctx.state.route = template;
    return next();
  };
}

/** Tells the metrics each request's route, method, status and duration; outside the error handler, so the status is the one sent. */
export function requestMetrics(view: MetricsView): Middleware {
  return function observed(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    const told = (): void => view.observeRequest((ctx.state.route as string | undefined) ?? null, ctx.method, ctx.status, (performance.now() - started) / 1000);
    return next().finally(told);
  };
}

/** A token scoped to some networks may not read what names them all. */
async function everyNetwork(ctx: Context, next: Next): Promise<void> {
  if (scopeOf(ctx) !== null) throw new NetcfgError('FORBIDDEN', "The metrics name every network, so they need a token whose scope is every network; this token's networks are limited.");
  await next();
}

export function metricsRoutes(router: Router, guard: Guard, view: MetricsView): void {
  router.get('/metrics', routeOf('/metrics'), ...guard('read'), everyNetwork, async (ctx: Context) => {
    const text = await view.text();
    ctx.type = view.contentType;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = text;
  });
}
