/**
 * RPC_PROBE_INTERVAL_MS: GET /networks/{network_id}/rpc-health answers the live prober's last look at
 * each of the network's URLs (`pending` until the first), GET /rpc-health its counts by status for
 * every network probed (the console's overview); readiness gets an `rpc` component (counts
 * by status, never a 503); the change stream gets an `rpc_health` event when a URL's status changes.
 * The prober itself is src/probe/live-prober.ts; this layer only shows what it found.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { networkOf } from '../../store/network-record.js';
import type { NetworkStore } from '../../store/network-store.js';

export interface RpcHealthEvent {
  id: string;
  url: string;
  status: string;
  previous: string | null;
}

/** What the HTTP layer needs of the live prober. */
export interface RpcHealthView {
  of(id: string): Array<{ url: string }> | null;
  summary(): { counts: Record<string, number>; last_round_at: string | null };
  /** Each probed network's URL statuses. */
  statuses(): Array<{ id: string; statuses: string[] }>;
  onChange(listener: (change: RpcHealthEvent) => void): () => void;
}

export function rpcHealthRoutes(router: Router, store: NetworkStore, guard: Middleware[], view: RpcHealthView): void {
  router.get(['/api/v1/networks/:network_id/rpc-health', '/networks/:network_id/rpc-health'], ...guard, (ctx: Context) => {
    const record = store.get(String(ctx.params.network_id));
    const probed = new Map((view.of(record.id) ?? []).map((h) => [h.url, h]));
    const urls = ((networkOf(record).rpc_urls ?? []) as Array<{ url: string }>).map(({ url }) => probed.get(url) ?? { url, status: 'pending', head: null, lag: null, latency_ms: null, checked_at: null, error: null });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, data: urls, error: null };
  });
  router.get('/api/v1/rpc-health', ...guard, (ctx: Context) => {
    const data = view.statuses().map(({ id, statuses }) => {
      const counts: Record<string, number> = {};
      for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
      return { id, counts };
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, data, error: null };
  });
}

/** The readiness `rpc` component: degraded while any URL is not fine; readiness itself is never made 503 by it. */
export function rpcComponent(view: RpcHealthView): Record<string, unknown> {
  const { counts, last_round_at } = view.summary();
  const bad = Object.entries(counts).some(([status, n]) => status !== 'ok' && n > 0);
  return { status: bad ? 'degraded' : 'healthy', ...counts, last_round_at };
}

export function rpcHealthFrame(change: RpcHealthEvent): string {
  return `event: rpc_health\ndata: ${JSON.stringify(change)}\n\n`;
}
