/**
 * RELAYER_SYNC_FILE: GET /api/v1/relayers answers each relayer netcfg keeps in sync (its state,
 * last pass, counts and the time they were last true, each network not in sync with why);
 * GET /api/v1/relayers/{name} adds its findings, newest first; POST /api/v1/relayers/{name}/sync
 * runs a pass now and answers what it found (409 from a replica that does not hold the lease).
 * Readiness gets a `relayers` component (degraded once a relayer has been failing, drifted, stale,
 * missing or pending for longer than an interval; never a 503: netcfg itself serves); admin
 * tokens' change stream gets a `relayer_sync` event per state change and per finding. The sync
 * itself is src/relayer/sync/; this layer only shows it. No key is ever in what it shows.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Guard } from '../auth.js';
import { NetcfgError } from '../../errors.js';
import { redactUrl } from '../../redact.js';
import type { Finding } from '../../relayer/sync/findings.js';
import type { TargetDetail, TargetStatus } from '../../relayer/sync/target-status.js';
import type { SpeakerView } from '../../relayer/lease/speaker.js';

/** What the HTTP layer needs of the relayer sync. */
export interface RelayersView {
  status(): TargetStatus[];
  detail(name: string): TargetDetail | null;
  passOne(name: string): Promise<TargetDetail | null>;
  speaking(): { holds: boolean; holder: string | null };
  onChange(listener: (status: TargetStatus) => void): () => void;
  onFinding(listener: (status: TargetStatus, finding: Finding) => void): () => void;
  /** Which replica speaks to the relayers (lease.ts); null where no lease is kept. */
  lease(): SpeakerView | null;
}

const shown = <T extends TargetStatus>(status: T): T => ({ ...status, url: redactUrl(status.url) });

const unknown = (name: string): NetcfgError =>
  new NetcfgError('RELAYER_NOT_FOUND', `No relayer ${name} in RELAYER_SYNC_FILE; GET /api/v1/relayers lists them.`);

export function relayerRoutes(router: Router, guard: Guard, view: RelayersView): void {
  router.get('/api/v1/relayers', ...guard('admin'), (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, data: view.status().map(shown), ...withLease(view), error: null };
  });
  router.get('/api/v1/relayers/:name', ...guard('admin'), (ctx: Context) => {
    const detail = view.detail(String(ctx.params.name));
    if (!detail) throw unknown(String(ctx.params.name));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, data: shown(detail), error: null };
  });
  router.post('/api/v1/relayers/:name/sync', ...guard('admin'), async (ctx: Context) => {
    const name = String(ctx.params.name);
    if (!view.detail(name)) throw unknown(name);
    const { holds, holder } = view.speaking();
    if (!holds)
      throw new NetcfgError(
        'NOT_LEASE_HOLDER',
        `This replica does not hold the relayer lease, so it sends nothing to ${name}; ` +
          `${holder === null ? 'no replica holds it now' : `${holder} does: ask it`}.`,
      );
    const detail = await view.passOne(name);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, data: detail && shown(detail), error: null };
  });
}

const BAD: ReadonlySet<string> = new Set(['failing', 'drifted', 'stale', 'missing', 'pending']);

/** The readiness `relayers` component: degraded while a relayer has been in a bad state longer than one interval. */
export function relayersComponent(
  view: RelayersView,
  now = Date.now(),
  fileProblem: string | null = null,
): Record<string, unknown> {
  const targets = view.status().map(({ name, state, state_since, interval_ms, last_pass_at, counts, counts_at }) => ({
    name,
    state,
    state_since,
    last_pass_at,
    counts,
    counts_at,
    interval_ms,
  }));
  const lasting = targets.filter((t) => BAD.has(t.state) && now - Date.parse(t.state_since) > t.interval_ms);
  // A targets file changed but not taken: the relayers before the change are still kept in sync, but not as the file says.
  const status = lasting.length > 0 || fileProblem !== null ? 'degraded' : 'healthy';
  return {
    status,
    targets: targets.map(({ interval_ms: _, ...t }) => t),
    ...(fileProblem === null ? {} : { targets_file_problem: fileProblem }),
    ...withLease(view),
  };
}

/** A relayer's state change, or one finding (its network and kind), as a change stream event: for admin tokens only. */
export function relayerSyncFrame(status: TargetStatus, finding?: Finding): string {
  const { name, state, counts, counts_at, last_error } = shown(status);
  const about = finding
    ? { network: finding.network, kind: finding.kind, fields: finding.fields, resolved: finding.resolved_at !== null }
    : { network: null, kind: null };
  return `event: relayer_sync\ndata: ${JSON.stringify({ name, state, counts, counts_at, last_error, ...about })}\n\n`;
}

function withLease(view: RelayersView): { lease?: SpeakerView } {
  const lease = view.lease();
  return lease === null ? {} : { lease };
}
