/**
 * One relayer kept in sync, the way Argo CD keeps a cluster: the desired state is what netcfg serves
 * (every field the relayer answers), the live state is what the relayer answers, and every difference
 * is shown, kept as a finding (ledger.ts), and closed where the relayer's API can close it. A change
 * of a served network queues it; one PATCH at a time takes the newest value, so changes in flight are
 * coalesced. A pass, on this relayer's own timer, lists it, brings what is served up to date and
 * compares each network in scope (pass-compare.ts): drift is set back unless self_heal is off; stale,
 * missing and extra are reported. Nothing is listed or sent while the speaker (the lease) does not
 * hold, no call outlives its window, and what a pass read or a change queued in one term of holding is
 * never acted on in another; every text the relayer answered is scrubbed of its key and secrets first.
 * Nothing throws out.
 */
import {
  listNetworks,
  patchRpcUrls,
  RelayerCallError,
  type ClientOptions,
  type PassBudget,
  type RelayerTarget,
} from './relayer-client.js';
import type { DesiredState, PassLog } from './desired-state.js';
import type { Finding } from './findings.js';
import { NetworkLedger } from './ledger.js';
import { PassSchedule } from './pass-schedule.js';
import { settleListed, type PassParts } from './pass-compare.js';
import { ALWAYS_SPEAKS, termOf, windowOf, type Speaker } from '../lease/speaker.js';
import { keyScrubber } from './scrub.js';
import { SentValues } from './sent-values.js';
import type { LastPass, TargetDetail, TargetState, TargetStatus } from './target-status.js';
import { inScope } from './targets-file.js';

export type { NetworkState, NetworkStatus, TargetState, TargetStatus } from './target-status.js';

export type WorkerOptions = ClientOptions & PassBudget & { intervalMs: number };
export type StateListener = (status: TargetStatus, finding?: Finding) => void;

export class TargetWorker {
  /** Networks to send, each with the term it was queued in. */
  private readonly queued = new Map<string, number>();
  private readonly ledger: NetworkLedger;
  private readonly sent = new SentValues();
  private readonly scrub: (text: string) => string;
  private readonly parts: PassParts;
  private readonly client: WorkerOptions;
  private lastPass: LastPass | null = null;
  private lastGoodPass: Date | null = null;
  private countsAt: Date | null = null;
  private lastError: string | null = null;
  private pointsAtSelf = false;
  private patchesSent = 0;
  private failures = 0;
  private shownState: TargetState = 'pending';
  private stateSince = new Date();
  private sending: Promise<void> | null = null;
  private readonly passes: PassSchedule;
  private closed = false;
  /** Ends the calls in flight at close(): a relayer that does not answer keeps no shutdown waiting. */
  private readonly closing = new AbortController();

  constructor(
    private readonly target: RelayerTarget & { networks: string[] | null },
    private readonly desired: DesiredState,
    private readonly options: WorkerOptions,
    private readonly log: PassLog,
    private readonly onState: StateListener,
    private readonly speaker: Speaker = ALWAYS_SPEAKS,
  ) {
    const scrubKey = keyScrubber(target.apiKey);
    this.scrub = (text) => scrubKey(desired.hide(text));
    this.ledger = new NetworkLedger(target.name, (finding) => onState(this.status(), finding));
    this.parts = { target, desired, ledger: this.ledger, log, show: this.scrub };
    this.client = { ...options, speaksForMs: () => windowOf(speaker), closing: this.closing.signal };
    this.passes = new PassSchedule(
      () => this.pass(),
      () => termOf(speaker),
      () => (this.failures > 0 ? this.backoffMs() : options.intervalMs),
    );
  }

  get name(): string {
    return this.target.name;
  }

  /** Its first pass now, then one an interval after each pass ends: a slow relayer delays only itself. */
  start(): void {
    this.passes.start();
  }

  /** A served network changed: send it, if this target takes it. */
  changed(id: string): void {
    if (!inScope(this.target, id)) return;
    this.queued.set(id, termOf(this.speaker));
    this.kick();
  }

  /** One pass now (one running in this term is joined; one of an earlier term compares nothing, so this runs after it). */
  passNow(): Promise<void> {
    return this.passes.now();
  }

  /** Whether this replica still speaks in `term`: another replica spoke to the relayer since, when not. */
  private speaking(term: number): boolean {
    return this.speaker.holds() && termOf(this.speaker) === term;
  }

  private async pass(): Promise<void> {
    if (this.closed) return;
    const before = this.state();
    if (!this.speaker.holds()) return this.report(before);
    const term = termOf(this.speaker);
    const started = new Date();
    const done = (pages: number, bytes: number, compared: number, error: string | null): void =>
      void (this.lastPass = {
        started_at: started.toISOString(),
        ended_at: new Date().toISOString(),
        pages,
        bytes,
        networks_compared: compared,
        error,
      });
    let live: Awaited<ReturnType<typeof listNetworks>>;
    const mark = this.sent.mark();
    try {
      live = await listNetworks(this.target, this.client);
    } catch (err) {
      if (!(err instanceof RelayerCallError && err.failure === 'silent')) done(0, 0, 0, this.failed(err));
      return this.report(before);
    }
    // Pulled after the list: a value the relayer held was sent after its commit was pushed, so this
    // pull brings that commit, and a replica a pull behind never sets the relayer back.
    await this.desired.catchUp().catch(() => undefined); // a failed pull is readiness' to show
    if (!this.speaking(term)) return this.report(before); // the lease changed hands since the list: it may be older than the relayer
    this.failures = 0;
    this.pointsAtSelf = false;
    this.ledger.hold();
    if (this.lastError !== null) this.ledger.noteFailure(null);
    this.lastError = null;
    this.sent.overlay(live.networks, mark, term); // a page read before this term's own PATCH landed is not drift
    const { compared, setBack } = settleListed(this.parts, live.networks);
    for (const id of setBack) this.queued.set(id, term);
    this.lastGoodPass = this.countsAt = new Date();
    done(live.pages, live.bytes, compared, null);
    this.report(before);
    this.ledger.release();
    this.kick();
  }

  status(): TargetStatus {
    const state = this.state();
    return {
      name: this.target.name,
      url: this.target.url,
      state,
      state_since: (state === this.shownState ? this.stateSince : new Date()).toISOString(),
      interval_ms: this.options.intervalMs,
      self_heal: this.target.selfHeal !== false,
      scope: this.target.networks,
      last_pass_at: this.lastGoodPass?.toISOString() ?? null,
      last_pass: this.lastPass,
      last_error: this.lastError,
      counts: this.ledger.counts(this.desired.ids().filter((id) => inScope(this.target, id))),
      counts_at: this.countsAt?.toISOString() ?? null,
      patches_sent: this.patchesSent,
      findings_opened: this.ledger.findings.counts(),
      networks: this.ledger.statuses(),
      extra: [...this.ledger.extra],
      ...(this.speaker.view ? { lease: this.speaker.view() } : {}),
    };
  }

  detail(): TargetDetail {
    return { ...this.status(), findings: this.ledger.findings.list() };
  }

  /** Stops its timer and retries and resolves once no call is in flight. */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    await Promise.all([this.passes.close(), this.sending]);
  }

  private state(): TargetState {
    if (!this.speaker.holds()) return 'standby';
    if (this.lastError !== null) return 'failing';
    if (this.lastGoodPass === null) return 'pending';
    return this.ledger.worst();
  }

  /** Sends the queued networks one at a time, unless that runs already. */
  private kick(): void {
    if (this.sending || this.closed || this.queued.size === 0) return;
    this.sending = this.send().finally(() => {
      this.sending = null;
      this.kick();
    });
  }

  private async send(): Promise<void> {
    for (const [id, term] of this.queued) {
      this.queued.delete(id);
      if (this.closed || this.pointsAtSelf || !this.speaking(term)) continue; // nothing sent; the holder's (or the next) pass compares it
      const rpcUrls = this.desired.rpcUrlsOf(id); // the newest value, read as it is sent
      if (rpcUrls === null || !inScope(this.target, id)) continue;
      const before = this.state();
      try {
        this.patchesSent++;
        await this.sent.send({ id, rpcUrls, term }, () => patchRpcUrls(this.target, id, rpcUrls, this.client));
        this.ledger.rpcUrlsTaken(id);
        this.failures = 0;
        if (this.lastError === null) this.countsAt = new Date();
        this.log.info({ relayer: this.target.name, network: id }, 'relayer sync: rpc_urls sent');
      } catch (err) {
        const failure = err instanceof RelayerCallError ? err.failure : null;
        // silent: its window ended first, and the holder's pass compares it.
        if (failure !== 'silent')
          this.ledger.rpcUrlsRefused(id, this.scrub((err as Error).message), failure === 'not_found');
        if (failure !== 'silent' && failure !== 'not_found') this.failed(err, id);
      }
      this.report(before);
    }
  }

  /** A failed call: kept for status, logged; the pass is retried after a backoff of at most one interval. Returns its sentence. */
  private failed(err: unknown, id?: string): string {
    const message = this.scrub(
      err instanceof RelayerCallError ? err.message : `relayer sync failed: ${(err as Error).message}`,
    );
    if (id === undefined) {
      this.lastError = message;
      this.pointsAtSelf = err instanceof RelayerCallError && err.failure === 'self';
      if (this.pointsAtSelf) this.queued.clear();
      this.ledger.noteFailure(message);
    }
    this.log.warn({ relayer: this.target.name, network: id, error: message }, 'relayer sync: call failed');
    this.failures++;
    if (id !== undefined) this.passes.after(this.backoffMs());
    return message;
  }

  /** A second after one failure, doubling with each further one, never more than one interval. */
  private backoffMs(): number {
    return Math.min(this.options.intervalMs, 500 * 2 ** Math.min(this.failures, 10));
  }

  private report(before: TargetState): void {
    const state = this.state();
    if (state !== this.shownState) [this.shownState, this.stateSince] = [state, new Date()];
    if (state !== before) this.onState(this.status());
  }
}
