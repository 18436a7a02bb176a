/**
 * RELAYER_SYNC_FILE: netcfg keeps running relayers equal to what it serves, through the relayers'
 * own API (target-worker.ts, one per relayer, each on its own timer: one relayer's slowness never
 * delays another's pass or a change sent to another). Changes are sent as they happen (a PATCH, a
 * pull, an edit on disk), never before netcfg's own answer; every interval a pass compares each
 * relayer with the folder, field by field. It knows the relayer's protocol and nothing of files or
 * serving: what is served comes through DesiredState, which main wires to the store.
 */
import { isDeepStrictEqual } from 'node:util';
import { INSTANCE_ID } from '../../instance.js';
import type { ClientOptions, PassBudget, RelayerTarget } from './relayer-client.js';
import type { DesiredState, PassLog } from './desired-state.js';
import type { Finding } from './findings.js';
import type { TargetDetail, TargetStatus } from './target-status.js';
import { TargetWorker } from './target-worker.js';
import { ALWAYS_SPEAKS, type Speaker, type SpeakerView } from '../lease/speaker.js';

export interface RelayerSyncOptions extends Omit<ClientOptions, 'instanceId'>, Partial<PassBudget> {
  /** RELAYER_SYNC_INTERVAL_MS: how often each relayer is compared with the folder. */
  intervalMs: number;
  log: PassLog;
  /** Sent with every request (default: this process's, which its HTTP app recognises as its own). */
  instanceId?: string;
  /** The lease: only while it holds are relayers listed and sent anything (default: always). */
  speaker?: Speaker;
}

/** RELAYER_SYNC_INTERVAL_MS's default: drift is closed within two minutes. */
export const DEFAULT_SYNC_INTERVAL_MS = 60_000;
/** What one pass reads of one relayer at most (its 63 shipped networks are ~60 KB). */
export const DEFAULT_PASS_BUDGET: PassBudget = { maxPassBytes: 64 * 1024 * 1024, maxPassNetworks: 10_000 };

type Target = RelayerTarget & { networks: string[] | null };

export class RelayerSync {
  private workers: TargetWorker[];
  /** Each worker's target, to tell a relayer changed in the targets file from one that stayed. */
  private readonly targetOf = new Map<TargetWorker, Target>();
  private readonly make: (target: Target) => TargetWorker;
  /** Workers of relayers the targets file no longer names, closing. */
  private readonly retiring = new Set<Promise<void>>();
  private started = false;
  private readonly listeners = new Set<(status: TargetStatus) => void>();
  private readonly findingListeners = new Set<(status: TargetStatus, finding: Finding) => void>();
  private unsubscribe: (() => void) | null = null;
  private readonly speaker: Speaker;

  constructor(
    targets: Target[],
    private readonly desired: DesiredState,
    options: RelayerSyncOptions,
  ) {
    this.speaker = options.speaker ?? ALWAYS_SPEAKS;
    const worker = { ...DEFAULT_PASS_BUDGET, ...options, instanceId: options.instanceId ?? INSTANCE_ID };
    const tell = (status: TargetStatus, finding?: Finding): void =>
      finding ? this.findingListeners.forEach((l) => l(status, finding)) : this.listeners.forEach((l) => l(status));
    this.make = (target) => {
      const made = new TargetWorker(target, desired, worker, options.log, tell, this.speaker);
      this.targetOf.set(made, target);
      return made;
    };
    this.workers = targets.map(this.make);
  }

  /**
   * The targets file changed (follow/relayer-targets.ts): a relayer added gets a worker and its first
   * pass, one removed is let go (its call in flight ends first), one changed (url, key, scope,
   * self_heal) is both; one unchanged keeps its worker, findings and timer.
   */
  replaceTargets(targets: Target[]): void {
    const kept = new Map(this.workers.map((w) => [w.name, w]));
    const next = targets.map((target) => {
      const worker = kept.get(target.name);
      if (worker && isDeepStrictEqual(this.targetOf.get(worker), target)) {
        kept.delete(target.name);
        return worker;
      }
      const made = this.make(target);
      if (this.started) made.start();
      return made;
    });
    for (const gone of kept.values()) {
      this.targetOf.delete(gone);
      const closing = gone.close().finally(() => this.retiring.delete(closing));
      this.retiring.add(closing);
    }
    this.workers = next;
  }

  /** Follows changes from now on; each relayer runs its first pass, then one every interval. */
  start(): void {
    this.started = true;
    this.unsubscribe = this.desired.subscribe((id) => this.workers.forEach((w) => w.changed(id)));
    for (const w of this.workers) w.start();
  }

  /** One pass over every relayer (resolves when all end; a relayer's pass already running is joined). */
  async passNow(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.passNow()));
  }

  /** One relayer's pass now, and what it found; null when no relayer has that name. */
  async passOne(name: string): Promise<TargetDetail | null> {
    const worker = this.workers.find((w) => w.name === name);
    if (!worker) return null;
    await worker.passNow();
    return worker.detail();
  }

  /** Whether this replica speaks to the relayers now, and who does (the lease's holder, when there is a lease). */
  speaking(): { holds: boolean; holder: string | null } {
    return { holds: this.speaker.holds(), holder: this.speaker.view?.().holder ?? null };
  }

  /** The lease as GET /api/v1/relayers, readiness and /metrics show it; null where no lease is kept. */
  lease(): SpeakerView | null {
    return this.speaker.view?.() ?? null;
  }

  status(): TargetStatus[] {
    return this.workers.map((w) => w.status());
  }

  detail(name: string): TargetDetail | null {
    return this.workers.find((w) => w.name === name)?.detail() ?? null;
  }

  /** Hears a relayer's new state as it changes; returns the way to stop. */
  onChange(listener: (status: TargetStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hears each finding as it is found or resolved, with its relayer's status then; returns the way to stop. */
  onFinding(listener: (status: TargetStatus, finding: Finding) => void): () => void {
    this.findingListeners.add(listener);
    return () => this.findingListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    await Promise.all([...this.workers.map((w) => w.close()), ...this.retiring]);
  }
}
