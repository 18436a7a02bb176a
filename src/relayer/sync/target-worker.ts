/**
 * One relayer kept in sync, the way Argo CD keeps a cluster: the desired state is what netcfg
 * serves, the live state is what the relayer answers, and the difference is shown and closed.
 * - A change of a served network queues it; one PATCH at a time takes the newest value when it
 *   is sent, so changes that arrive while one is in flight are coalesced.
 * - A pass lists the relayer's networks, brings what is served up to date, and compares each network in scope: equal is in sync, a
 *   difference is drift (reported, logged, queued), absent is missing (its API cannot create one),
 *   and one only the relayer has is reported and left alone.
 * - A failure is kept per network and for the target, and retried with backoff that never waits
 *   longer than one interval. Nothing here throws out of its loop.
 */
import { isDeepStrictEqual } from 'node:util';
import { listNetworks, patchRpcUrls, RelayerCallError, type ClientOptions, type RelayerTarget } from './relayer-client.js';
import type { DesiredState, SyncLog } from './desired-state.js';
import { inScope } from './targets-file.js';
import { redactText } from '../../redact.js';

export type NetworkState = 'in_sync' | 'drifted' | 'missing' | 'failing';
export type TargetState = 'pending' | 'in_sync' | 'drifted' | 'missing' | 'failing';

export interface NetworkStatus {
  id: string;
  state: NetworkState;
  /** What the relayer held when it differed (drifted: its URLs redacted, a secret's value masked), or why it failed. */
  relayer?: unknown;
  error?: string;
}

export interface TargetStatus {
  name: string;
  url: string;
  state: TargetState;
  last_pass_at: string | null;
  last_error: string | null;
  counts: Record<NetworkState, number> & { extra: number };
  /** PATCHes this target was sent since start. */
  patches_sent: number;
  /** Every network not in sync, and why. */
  networks: NetworkStatus[];
  /** Networks only the relayer has (left alone). */
  extra: string[];
}

export class TargetWorker {
  private readonly networks = new Map<string, NetworkStatus>();
  private readonly queued = new Set<string>();
  private extra: string[] = [];
  private lastPassAt: Date | null = null;
  private lastError: string | null = null;
  private patchesSent = 0;
  private failures = 0;
  private pushing: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly target: RelayerTarget & { networks: string[] | null },
    private readonly desired: DesiredState,
    private readonly options: ClientOptions & { intervalMs: number; speaker?: { holds(): boolean } },
    private readonly log: SyncLog,
    private readonly onState: (status: TargetStatus) => void,
  ) {}

  /** A served network changed: send it, if this target takes it. */
  changed(id: string): void {
    if (!inScope(this.target, id)) return;
    this.queued.add(id);
    this.kick();
  }

  /** Lists the relayer's networks, compares them with what is served, and closes the difference. */
  async pass(): Promise<void> {
    if (this.closed || this.options.speaker?.holds() === false) return;
    const before = this.state();
    let live: Map<string, unknown>;
    try {
      live = await listNetworks(this.target, this.options);
    } catch (err) {
      this.failed(err);
      this.report(before);
      return;
    }
    // Pulled after the list: a value the relayer held was sent after its commit was pushed, so this
    // pull brings that commit, and a replica a pull behind never sets the relayer back.
    await this.desired.refresh().catch(() => undefined); // a failed pull is readiness' to show
    this.lastPassAt = new Date();
    this.lastError = null;
    const wanted = this.desired.ids().filter((id) => inScope(this.target, id));
    const wantedSet = new Set(wanted);
    this.extra = [...live.keys()].filter((id) => !wantedSet.has(id) && inScope(this.target, id)).sort();
    for (const id of [...this.networks.keys()]) if (!wantedSet.has(id)) this.networks.delete(id);
    for (const id of wanted) {
      const desired = this.desired.rpcUrlsOf(id);
      if (desired === null) continue;
      if (!live.has(id)) this.networks.set(id, { id, state: 'missing', error: `${this.target.name} has no network ${id}; its API cannot create one: add it to its files (netcfg export relayer) and restart it` });
      else if (isDeepStrictEqual(live.get(id), desired)) this.networks.delete(id);
      else {
        if (this.networks.get(id)?.state !== 'drifted') this.log.warn({ relayer: this.target.name, network: id }, 'relayer sync: drift found, setting it back to the folder\'s rpc_urls');
        this.networks.set(id, { id, state: 'drifted', relayer: JSON.parse(redactText(this.desired.hide(JSON.stringify(live.get(id))))) as unknown });
        this.queued.add(id);
      }
    }
    this.report(before);
    this.kick();
  }

  status(): TargetStatus {
    const counts = { in_sync: 0, drifted: 0, missing: 0, failing: 0, extra: this.extra.length };
    const scoped = this.desired.ids().filter((id) => inScope(this.target, id));
    for (const id of scoped) counts[this.networks.get(id)?.state ?? 'in_sync']++;
    return {
      name: this.target.name,
      url: this.target.url,
      state: this.state(),
      last_pass_at: this.lastPassAt?.toISOString() ?? null,
      last_error: this.lastError,
      counts,
      patches_sent: this.patchesSent,
      networks: [...this.networks.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
      extra: this.extra,
    };
  }

  /** Stops retrying and resolves once no PATCH is in flight. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.pushing;
  }

  private state(): TargetState {
    if (this.lastError !== null) return 'failing';
    if (this.lastPassAt === null) return 'pending';
    const states = new Set([...this.networks.values()].map((n) => n.state));
    return states.has('failing') ? 'failing' : states.has('drifted') ? 'drifted' : states.has('missing') ? 'missing' : 'in_sync';
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
      if (this.closed) return;
      if (this.options.speaker?.holds() === false) return this.queued.clear(); // the holder's pass sends what is served
      this.queued.delete(id);
      const rpcUrls = this.desired.rpcUrlsOf(id); // the newest value, read as it is sent
      if (rpcUrls === null || !inScope(this.target, id)) continue;
      const before = this.state();
      try {
        this.patchesSent++;
        await patchRpcUrls(this.target, id, rpcUrls, this.options);
        this.networks.delete(id);
        this.failures = 0;
        this.log.info({ relayer: this.target.name, network: id }, 'relayer sync: rpc_urls sent');
      } catch (err) {
        const missing = err instanceof RelayerCallError && err.failure === 'not_found';
        this.networks.set(id, { id, state: missing ? 'missing' : 'failing', error: this.desired.hide((err as Error).message) });
        if (!missing) this.failed(err, id);
      }
      this.report(before);
    }
  }

  /** A failed call: kept for status, logged, and a pass retried after a backoff of at most one interval. */
  private failed(err: unknown, id?: string): void {
    const message = this.desired.hide(err instanceof RelayerCallError ? err.message : `relayer sync failed: ${(err as Error).message}`);
    if (id === undefined) this.lastError = message;
    this.log.warn({ relayer: this.target.name, network: id, error: message }, 'relayer sync: call failed');
    this.failures++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.pass(), Math.min(this.options.intervalMs, 500 * 2 ** Math.min(this.failures, 10)));
    this.retryTimer.unref();
  }

  private report(before: TargetState): void {
    if (this.state() !== before) this.onState(this.status());
  }
}
