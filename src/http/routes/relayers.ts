/**
 * RELAYER_SYNC_FILE: GET /api/v1/relayers answers each relayer netcfg keeps in sync (its state,
 * last pass, counts in sync / drifted / missing / failing / extra, PATCHes sent, last error, and
 * each network not in sync with why); readiness gets a `relayers` component (degraded while a
 * relayer fails, drifts or lacks a network, never a 503: netcfg itself serves); the change stream
 * gets a `relayer_sync` event when a relayer's state changes. The sync itself is
 * src/relayer/sync/; this layer only shows it. No key is ever in what it shows.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Guard } from '../auth.js';
import { redactUrl } from '../../redact.js';
import type { TargetStatus } from '../../relayer/sync/target-worker.js';
import type { LeaseView } from '../../relayer/sync/lease.js';

/** What the HTTP layer needs of the relayer sync. */
export interface RelayersView {
  status(): TargetStatus[];
  onChange(listener: (status: TargetStatus) => void): () => void;
  /** Which replica speaks to the relayers (lease.ts). */
  lease?(): LeaseView;
}

const shown = (status: TargetStatus): TargetStatus => ({ ...status, url: redactUrl(status.url) });

export function relayerRoutes(router: Router, guard: Guard, view: RelayersView): void {
  router.get('/api/v1/relayers', ...guard('admin'), (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, data: view.status().map(shown), ...(view.lease ? { lease: view.lease() } : {}), error: null };
  });
}

/** The readiness `relayers` component: each relayer's state; degraded unless every one is in sync. */
export function relayersComponent(view: RelayersView): Record<string, unknown> {
  const targets = view.status().map(({ name, state, last_pass_at, counts }) => ({ name, state, last_pass_at, counts }));
  return { status: targets.every((t) => t.state === 'in_sync') ? 'healthy' : 'degraded', targets, ...(view.lease ? { lease: view.lease() } : {}) };
}

export function relayerSyncFrame(status: TargetStatus): string {
  const { name, state, counts, last_error } = shown(status);
  return `event: relayer_sync\ndata: ${JSON.stringify({ name, state, counts, last_error })}\n\n`;
}
