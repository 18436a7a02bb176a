/**
 * One relayer kept in sync, the way Argo CD keeps a cluster: the desired state is what netcfg
 * serves (every field the relayer answers), the live state is what the relayer answers, and every
 * difference is shown, kept as a finding, and closed where the relayer's API can close it.
 * - A change of a served network queues it; one PATCH at a time takes the newest value when it is
 *   sent, so changes that arrive while one is in flight are coalesced.
 * - A pass (on this relayer's own timer) lists the relayer, brings what is served up to date, and
 *   compares each network in scope: rpc_urls differing is drift (set back, unless self_heal is off);
 *   another field differing is stale (its API cannot change it); absent is missing; one only the
 *   relayer has is extra, left alone.
 * - Nothing is listed or sent while the speaker (the lease) does not hold. Every text the relayer
 *   answered is scrubbed of its key and any secret value before it is kept. Nothing throws out.
 */
import { isDeepStrictEqual } from 'node:util';
import { listNetworks, patchRpcUrls, RelayerCallError, type ClientOptions, type PassBudget, type RelayerTarget } from './relayer-client.js';
import type { DesiredState, SyncLog } from './desired-state.js';
import { ANSWERED_FIELDS } from '../format/relayer-form.js';
import { FindingsLog, type Finding, type FindingDetail, type FindingKind } from './findings.js';
import { keyScrubber } from './scrub.js';
import { reloadRemedy, type LastPass, type NetworkStatus, type TargetDetail, type TargetState, type TargetStatus } from './target-status.js';
import { inScope } from './targets-file.js';

export type { NetworkState, NetworkStatus, TargetState, TargetStatus } from './target-status.js';

/** Whether this replica speaks to the relayers now (the lease: sync-lease's), and who does. */
export interface Speaker {
  holds(): boolean;
  view?(): { holder: string | null; this_replica: string; expires_at: string | null };
}
export const ALWAYS_SPEAKS: Speaker = { holds: () => true };

export type WorkerOptions = ClientOptions & PassBudget & { intervalMs: number };
export type StateListener = (status: TargetStatus, finding?: Finding) => void;

export class TargetWorker {
  private readonly networks = new Map<string, NetworkStatus>();
  private readonly queued = new Set<string>();
  private readonly findings = new FindingsLog();
  private readonly scrub: (text: string) => string;
  private extra: string[] = [];
  private lastPass: LastPass | null = null;
  private lastGoodPass: Date | null = null;
  private countsAt: Date | null = null;
  private lastError: string | null = null;
  private pointsAtSelf = false;
  private patchesSent = 0;
  private failures = 0;
  private shownState: TargetState = 'pending';
  private stateSince = new Date();
  private passing: Promise<void> | null = null;
  private pushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Findings of a pass in progress: told once it ends, with the status it ended in. */
  private held: Finding[] | null = null;
  private closed = false;

  constructor(
    private readonly target: RelayerTarget & { networks: string[] | null },
    private readonly desired: DesiredState,
    private readonly options: WorkerOptions,
    private readonly log: SyncLog,
    private readonly onState: StateListener,
    private readonly speaker: Speaker = ALWAYS_SPEAKS,
  ) {
    const scrubKey = keyScrubber(target.apiKey);
    this.scrub = (text) => scrubKey(desired.hide(text));
  }

  get name(): string {
    return this.target.name;
  }

  /** Its first pass now, then one an interval after each pass ends: a slow relayer delays only itself. */
  start(): void {
    this.running = true;
    void this.passNow();
  }

  /** A served network changed: send it, if this target takes it. */
  changed(id: string): void {
    if (!inScope(this.target, id)) return;
    this.queued.add(id);
    this.kick();
  }

  /** One pass now (a pass already running is joined); resolves when it ends. */
  passNow(): Promise<void> {
    this.passing ??= this.pass().finally(() => {
      this.passing = null;
      this.schedule(this.failures > 0 ? Math.min(this.options.intervalMs, 500 * 2 ** Math.min(this.failures, 10)) : this.options.intervalMs);
    });
    return this.passing;
  }

  private async pass(): Promise<void> {
    if (this.closed) return;
    const before = this.state();
    if (!this.speaker.holds()) return this.report(before);
    const started = new Date();
    const done = (pages: number, bytes: number, compared: number, error: string | null): void =>
      void (this.lastPass = { started_at: started.toISOString(), ended_at: new Date().toISOString(), pages, bytes, networks_compared: compared, error });
    let live: Awaited<ReturnType<typeof listNetworks>>;
    try {
      live = await listNetworks(this.target, this.options);
    } catch (err) {
      done(0, 0, 0, this.failed(err));
      return this.report(before);
    }
    // Pulled after the list: a value the relayer held was sent after its commit was pushed, so this
    // pull brings that commit, and a replica a pull behind never sets the relayer back.
    await this.desired.refresh().catch(() => undefined); // a failed pull is readiness' to show
    this.failures = 0;
    this.pointsAtSelf = false;
    this.held = [];
    if (this.lastError !== null) this.tell(this.findings.resolve(null, 'failing'));
    this.lastError = null;
    const wanted = this.desired.ids().filter((id) => inScope(this.target, id));
    const wantedSet = new Set(wanted);
    this.noteExtra([...live.networks.keys()].filter((id) => !wantedSet.has(id) && inScope(this.target, id)).sort());
    for (const id of new Set([...this.networks.keys(), ...this.findings.openNetworks()])) if (!wantedSet.has(id)) this.settle(id, []);
    let compared = 0;
    for (const id of wanted) {
      const rpcUrls = this.desired.rpcUrlsOf(id);
      if (rpcUrls === null) continue;
      compared++;
      const want = this.desired.relayerFormOf(id) ?? { rpc_urls: rpcUrls };
      const held = live.networks.get(id);
      if (held === undefined) this.settle(id, ['missing'], { id, state: 'missing', error: `${this.target.name} has no network ${id}; ${reloadRemedy(this.target.name)}` });
      else this.compare(id, held, want);
    }
    this.lastGoodPass = this.countsAt = new Date();
    done(live.pages, live.bytes, compared, null);
    this.report(before);
    const found = this.held;
    this.held = null;
    for (const finding of found) this.tell(finding);
    this.kick();
  }

  /** One network's answered fields against netcfg's: drift (rpc_urls), stale (any other), or in sync. */
  private compare(id: string, held: Record<string, unknown>, want: Record<string, unknown>): void {
    const fields = ANSWERED_FIELDS.filter((f) => (f in want || f in held) && !isDeepStrictEqual(held[f], want[f]));
    if (fields.length === 0) return void this.settle(id, []);
    const shown = (from: Record<string, unknown>, keys: string[]): Record<string, unknown> =>
      JSON.parse(this.scrub(JSON.stringify(Object.fromEntries(keys.map((k) => [k, from[k] ?? null]))))) as Record<string, unknown>;
    const drift = fields.includes('rpc_urls');
    const stale = fields.filter((f) => f !== 'rpc_urls');
    const heal = this.target.selfHeal !== false;
    const kinds: FindingKind[] = [...(drift ? (['drift'] as const) : []), ...(stale.length > 0 ? (['stale'] as const) : [])];
    const remedy = stale.length > 0 ? `${stale.join(', ')} differ on ${this.target.name}; ${reloadRemedy(this.target.name)}` : undefined;
    const status: NetworkStatus = { id, state: drift ? 'drifted' : 'stale', fields, relayer: shown(held, fields), netcfg: shown(want, fields), ...(remedy ? { error: remedy } : {}) };
    const details: Partial<Record<FindingKind, FindingDetail>> = {
      drift: { fields: ['rpc_urls'], relayer_value: shown(held, ['rpc_urls']).rpc_urls, netcfg_value: shown(want, ['rpc_urls']).rpc_urls, sent: heal ? shown(want, ['rpc_urls']).rpc_urls : null },
      stale: { fields: stale, relayer_value: shown(held, stale), netcfg_value: shown(want, stale), sent: null },
    };
    const newDrift = this.settle(id, kinds, status, details).includes('drift');
    if (drift && newDrift) this.log.warn({ relayer: this.target.name, network: id, self_heal: heal }, heal ? "relayer sync: drift found, setting it back to the folder's rpc_urls" : 'relayer sync: drift found, left in place (self_heal: false)');
    if (drift && heal) this.queued.add(id);
  }

  /** Sets a network's status and its open findings to `kinds`: the others resolved. Returns the kinds newly found. */
  private settle(id: string, kinds: FindingKind[], status?: NetworkStatus, details: Partial<Record<FindingKind, FindingDetail>> = {}): FindingKind[] {
    if (status) this.networks.set(id, status);
    else this.networks.delete(id);
    for (const open of this.findings.openOf(id)) if (!kinds.includes(open.kind)) this.tell(this.findings.resolve(id, open.kind));
    const found: FindingKind[] = [];
    for (const kind of kinds) {
      const detail = details[kind] ?? { fields: [], relayer_value: status?.error ?? null, netcfg_value: null, sent: null };
      const { found: f } = this.findings.note(id, kind, detail);
      if (f) found.push(kind);
      this.tell(f);
    }
    return found;
  }

  private noteExtra(extra: string[]): void {
    for (const id of this.extra) if (!extra.includes(id)) this.tell(this.findings.resolve(id, 'extra'));
    for (const id of extra) this.tell(this.findings.note(id, 'extra', { fields: [], relayer_value: null, netcfg_value: null, sent: null }).found);
    this.extra = extra;
  }

  status(): TargetStatus {
    const counts = { in_sync: 0, drifted: 0, stale: 0, missing: 0, failing: 0, extra: this.extra.length };
    for (const id of this.desired.ids()) if (inScope(this.target, id)) counts[this.networks.get(id)?.state ?? 'in_sync']++;
    const state = this.state();
    return {
      name: this.target.name,
      url: this.target.url,
      state,
      state_since: (state === this.shownState ? this.stateSince : new Date()).toISOString(),
      interval_ms: this.options.intervalMs,
      self_heal: this.target.selfHeal !== false,
      last_pass_at: this.lastGoodPass?.toISOString() ?? null,
      last_pass: this.lastPass,
      last_error: this.lastError,
      counts,
      counts_at: this.countsAt?.toISOString() ?? null,
      patches_sent: this.patchesSent,
      findings_opened: this.findings.counts(),
      networks: [...this.networks.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
      extra: this.extra,
      ...(this.speaker.view ? { lease: this.speaker.view() } : {}),
    };
  }

  detail(): TargetDetail {
    return { ...this.status(), findings: this.findings.list() };
  }

  /** Stops its timer and retries and resolves once no call is in flight. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await Promise.all([this.passing, this.pushing]);
  }

  private state(): TargetState {
    if (!this.speaker.holds()) return 'standby';
    if (this.lastError !== null) return 'failing';
    if (this.lastGoodPass === null) return 'pending';
    const states = new Set([...this.networks.values()].map((n) => n.state));
    for (const s of ['failing', 'drifted', 'stale', 'missing'] as const) if (states.has(s)) return s;
    return 'in_sync';
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (this.closed || !this.running) return;
    this.timer = setTimeout(() => void this.passNow(), ms);
    this.timer.unref();
  }

  /** Sends the queued networks one at a time, unless that runs already. */
  private kick(): void {
    if (this.pushing || this.closed || this.queued.size === 0) return;
    this.pushing = this.push().finally(() => {
      this.pushing = null;
      this.kick();
    });
  }

  private async push(): Promise<void> {
    for (const id of this.queued) {
      this.queued.delete(id);
      if (this.closed || this.pointsAtSelf || !this.speaker.holds()) continue; // nothing sent; the holder's (or the next) pass compares it
      const rpcUrls = this.desired.rpcUrlsOf(id); // the newest value, read as it is sent
      if (rpcUrls === null || !inScope(this.target, id)) continue;
      const before = this.state();
      try {
        this.patchesSent++;
        await patchRpcUrls(this.target, id, rpcUrls, this.options);
        this.sent(id);
        this.log.info({ relayer: this.target.name, network: id }, 'relayer sync: rpc_urls sent');
      } catch (err) {
        const missing = err instanceof RelayerCallError && err.failure === 'not_found';
        const message = this.scrub((err as Error).message);
        if (missing) this.settle(id, ['missing'], { id, state: 'missing', error: `${message}; ${reloadRemedy(this.target.name)}` });
        else {
          this.settle(id, ['failing', ...this.findings.openOf(id).map((f) => f.kind).filter((k) => k !== 'failing')], { id, state: 'failing', error: message });
          this.failed(err, id);
        }
      }
      this.report(before);
    }
  }

  /** rpc_urls set: drift closed; what else differs stays stale. */
  private sent(id: string): void {
    const current = this.networks.get(id);
    const stale = (current?.fields ?? []).filter((f) => f !== 'rpc_urls');
    const kinds = this.findings.openOf(id).some((f) => f.kind === 'stale') && stale.length > 0 ? (['stale'] as FindingKind[]) : [];
    const pick = (v: unknown): unknown => Object.fromEntries(stale.map((f) => [f, (v as Record<string, unknown>)[f]]));
    this.settle(id, kinds, kinds.length === 0 ? undefined : { ...(current as NetworkStatus), state: 'stale', fields: stale, relayer: pick(current?.relayer), netcfg: pick(current?.netcfg) });
    this.failures = 0;
    if (this.lastError === null) this.countsAt = new Date();
  }

  /** A failed call: kept for status, logged; the pass is retried after a backoff of at most one interval. Returns its sentence. */
  private failed(err: unknown, id?: string): string {
    const message = this.scrub(err instanceof RelayerCallError ? err.message : `relayer sync failed: ${(err as Error).message}`);
    if (id === undefined) {
      this.lastError = message;
      this.pointsAtSelf = err instanceof RelayerCallError && err.failure === 'self';
      if (this.pointsAtSelf) this.queued.clear();
      this.tell(this.findings.note(null, 'failing', { fields: [], relayer_value: message, netcfg_value: null, sent: null }).found);
    }
    this.log.warn({ relayer: this.target.name, network: id, error: message }, 'relayer sync: call failed');
    this.failures++;
    if (id !== undefined) this.schedule(Math.min(this.options.intervalMs, 500 * 2 ** Math.min(this.failures, 10)));
    return message;
  }

  private tell(finding: Finding | null): void {
    if (finding && this.held) this.held.push(finding);
    else if (finding) this.onState(this.status(), { ...finding });
  }

  private report(before: TargetState): void {
    const state = this.state();
    if (state !== this.shownState) [this.shownState, this.stateSince] = [state, new Date()];
    if (state !== before) this.onState(this.status());
  }
}
