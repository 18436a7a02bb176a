/**
 * RPC_PROBE_INTERVAL_MS: GET /networks/{network_id}/rpc-health answers the live prober's last look at
 * each of the network's URLs (`pending` until the first), GET /rpc-health its counts by status for
 * every network probed (the console's overview); readiness gets an `rpc` component (counts
 * by status, never a 503); the change stream gets an `rpc_health` event when a URL's status changes.
 * The prober itself is src/probe/live-prober.ts; this layer only shows what it found. URLs often
 * carry an API key, so each is shown redacted, with its index in `rpc_urls` for a client to match.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { scopeOf, withinScope, type Guard } from '../auth.js';
import { redactText, redactUrl } from '../../redact.js';
import { networkOf, type NetworkStore } from '../../store/index.js';

export interface RpcHealthEvent {
  id: string;
  /** The URL's place in the network's `rpc_urls`. */
  index: number;
  url: string;
  status: string;
  previous: string | null;
}

/** What the HTTP layer needs of the live prober. */
export interface RpcHealthView {
  of(id: string): Array<{ url: string; error: string | null }> | null;
  summary(): { counts: Record<string, number>; last_round_at: string | null };
  /** Each probed network's URL statuses. */
  statuses(): Array<{ id: string; statuses: string[] }>;
  onChange(listener: (change: RpcHealthEvent) => void): () => void;
}

/** RPC_AUTO_DISABLE: what the prober disabled and has not restored, by place in rpc_urls. */
export interface AutoHealView {
  of(id: string): Map<number, { at: string; reason: string }>;
  disabledNow(): number;
}

export function rpcHealthRoutes(
  router: Router,
  store: NetworkStore,
  guard: Guard,
  view: RpcHealthView,
  heal?: AutoHealView,
): void {
  router.get(
    ['/api/v1/networks/:network_id/rpc-health', '/networks/:network_id/rpc-health'],
    ...guard('read'),
    withinScope,
    (ctx: Context) => {
      const record = store.get(String(ctx.params.network_id));
      const probed = new Map((view.of(record.id) ?? []).map((h) => [h.url, h]));
      const disabled = heal?.of(record.id) ?? new Map<number, { at: string; reason: string }>();
      const urls = ((networkOf(record).rpc_urls ?? []) as Array<{ url: string }>).map(({ url }, index) => {
        const health = probed.get(url) ?? {
          url,
          status: 'pending',
          head: null,
          lag: null,
          latency_ms: null,
          checked_at: null,
          error: null,
        };
        const auto = disabled.get(index);
        return {
          index,
          ...health,
          url: redactUrl(url),
          error: health.error === null ? null : redactText(health.error),
          ...(auto ? { auto_disabled_at: auto.at, reason: redactText(auto.reason) } : {}),
        };
      });
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { success: true, data: urls, error: null };
    },
  );
  router.get('/api/v1/rpc-health', ...guard('read'), (ctx: Context) => {
    const scope = scopeOf(ctx);
    const data = view
      .statuses()
      .filter(({ id }) => scope?.(id) ?? true)
      .map(({ id, statuses }) => {
        const counts: Record<string, number> = {};
        for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
        return { id, counts };
      });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, data, error: null };
  });
}

/** The readiness `rpc` component: degraded while any URL is not fine; readiness itself is never made 503 by it. */
export function rpcComponent(view: RpcHealthView, heal?: AutoHealView): Record<string, unknown> {
  const { counts, last_round_at } = view.summary();
  const bad = Object.entries(counts).some(([status, n]) => status !== 'ok' && n > 0);
  return {
    status: bad ? 'degraded' : 'healthy',
    ...counts,
    last_round_at,
    ...(heal ? { auto_disabled: heal.disabledNow() } : {}),
  };
}

export function rpcHealthFrame({ id, index, url, status, previous }: RpcHealthEvent): string {
  return `event: rpc_health\ndata: ${JSON.stringify({ id, index, url: redactUrl(url), status, previous })}\n\n`;
}
