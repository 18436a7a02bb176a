/**
 * RELAYER_SYNC_FILE: netcfg keeps running relayers' rpc_urls equal to what it serves, through the
 * relayers' own API (target-worker.ts, one per relayer). Changes are sent as they happen (a PATCH,
 * a pull, an edit on disk), never before netcfg's own answer; every interval a pass compares each
 * relayer with the folder and closes any drift. It knows the relayer's protocol and nothing of
 * files or serving: what is served comes through DesiredState, which main wires to the store.
 */
import type { ClientOptions, RelayerTarget } from './relayer-client.js';
import type { DesiredState, SyncLog } from './desired-state.js';
import { TargetWorker, type TargetStatus } from './target-worker.js';

export interface RelayerSyncOptions extends ClientOptions {
  /** RELAYER_SYNC_INTERVAL_MS: how often each relayer is compared with the folder. */
  intervalMs: number;
  log: SyncLog;
  /** Replicas sharing a targets file: while this says no, no pass lists and no PATCH is sent (lease.ts). */
  speaker?: { holds(): boolean; view?(): { holder: string | null; this_replica: string; expires_at: string | null } };
}

/** RELAYER_SYNC_INTERVAL_MS's default: drift is closed within two minutes. */
export const DEFAULT_SYNC_INTERVAL_MS = 60_000;

export class RelayerSync {
  private readonly workers: TargetWorker[];
  private readonly listeners = new Set<(status: TargetStatus) => void>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | null = null;
  private passing: Promise<void> | null = null;

  constructor(
    targets: Array<RelayerTarget & { networks: string[] | null }>,
    private readonly desired: DesiredState,
    private readonly options: RelayerSyncOptions,
  ) {
    this.workers = targets.map((t) => new TargetWorker(t, desired, options, options.log, (status) => this.listeners.forEach((l) => l(status))));
  }

  /** Follows changes from now on, runs the first pass, then one every interval. */
  start(): void {
    this.unsubscribe = this.desired.subscribe((id) => this.workers.forEach((w) => w.changed(id)));
    void this.passNow();
    this.timer = setInterval(() => void this.passNow(), this.options.intervalMs);
    this.timer.unref();
  }

  /** One pass over every relayer (resolves when done; a pass already running is joined). */
  passNow(): Promise<void> {
    this.passing ??= Promise.all(this.workers.map((w) => w.pass()))
      .then(() => undefined)
      .finally(() => (this.passing = null));
    return this.passing;
  }

  status(): TargetStatus[] {
    return this.workers.map((w) => w.status());
  }

  /** Hears a relayer's new state as it changes (the change stream); returns the way to stop. */
  onChange(listener: (status: TargetStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe?.();
    await this.passing;
    await Promise.all(this.workers.map((w) => w.close()));
  }
}
