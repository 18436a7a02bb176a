/**
 * One replica speaks to the relayers: replicas sharing a targets file elect the holder of a lease
 * kept in a slot they all reach (with GIT_SYNC a ref of the remote, else a file beside the write
 * locks; the store implements both). Every write of the slot is a compare-and-swap, so of two
 * replicas racing for it exactly one wins, and a lost race is a lost lease.
 *
 * Time is never read from another host: a replica measures everything on its own monotonic clock.
 * - The holder renews every third of the lease. It speaks until (when its last successful renewal
 *   was *sent*) + lease − margin (a quarter of the lease): a holder that cannot renew falls silent
 *   before any other replica may take over, and a call it started just before has that margin to end.
 * - A replica standing by notes when it first saw the slot's current version; the lease is over
 *   when that version has not changed for a whole lease on its own clock (or the slot says released).
 *   The version it saw was written no earlier than it was seen, so its end is never before the
 *   holder's own. `expires_at` in the slot is the writer's wall clock, shown to people, never trusted.
 * - One that takes over a lease that ran out (not one given up) waits min(call deadline, half a lease)
 *   before its first call: a call the old holder started before falling silent has met its deadline by
 *   then (RELAYER_SYNC_TIMEOUT_MS may be at most three quarters of the lease: config/relayer.ts), so a
 *   value it was sending can never land after one the new holder sends. Each call's deadline is also cut to
 *   the holder's own window (speaksForMs), so none it starts runs past the moment it falls silent.
 * A holder killed stops renewing; one standing by takes over within 2 lease periods (it looks at
 * least every third of a lease, and at the moment the version it saw runs out).
 */
import type { SpeakerView } from './speaker.js';

/** What the slot holds: who holds the lease (null: released) and until when by the writer's clock (shown only). */
export interface LeaseClaim {
  holder: string | null;
  expires_at: string | null;
}

/** The shared slot the lease lives in; `version` changes at every write. */
export interface LeaseStorage {
  /** What the slot holds now; null when nothing was ever written. Throws when it cannot be read. */
  read(): Promise<{ version: string; claim: LeaseClaim } | null>;
  /** Writes `claim` only if the slot still holds `expected` (null: nothing); its new version, or null when another write came first. */
  swap(expected: string | null, claim: LeaseClaim): Promise<string | null>;
}

/** What GET /api/v1/relayers, readiness and the metrics show of the lease. */
export type LeaseView = SpeakerView;

export interface LeaseOptions {
  /** RELAYER_SYNC_LEASE_MS: how long a lease lasts without renewal. */
  leaseMs: number;
  /** NETCFG_REPLICA_ID. */
  replica: string;
  /** RELAYER_SYNC_TIMEOUT_MS: the longest a relayer call lasts. */
  callMs: number;
  storage: LeaseStorage;
  log: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
  /** The local monotonic clock in ms (tests drive it). */
  clock?: () => number;
}

/** RELAYER_SYNC_LEASE_MS's default. */
export const DEFAULT_LEASE_MS = 15_000;

export class Lease {
  /** Until when (local clock) this replica may speak; 0: it does not hold the lease. */
  private speakUntil = 0;
  /** From when (local clock) this replica may speak: later than the take-over of a lease that ran out. */
  private speakFrom = 0;
  /** The slot's version this replica wrote last (its lease, while it holds it). */
  private mine: string | null = null;
  /** The slot's version as last read, and when this replica first saw it (local clock). */
  private seen: { version: string | null; claim: LeaseClaim | null; at: number } | null = null;
  private readonly clock: () => number;
  private readonly listeners = new Set<(holds: boolean) => void>();
  private timer: NodeJS.Timeout | undefined;
  private stepping: Promise<void> | null = null;
  private stopped = false;
  private wasSpeaking = false;
  /** How many times this replica took the lease (not renewals): the Speaker's term. */
  private taken = 0;

  constructor(private readonly options: LeaseOptions) {
    this.clock = options.clock ?? (() => performance.now());
  }

  /** Whether this replica may send to the relayers now (the relayer sync's gate). */
  holds(): boolean {
    return this.held() && this.clock() >= this.speakFrom;
  }

  /** How much longer this replica may speak (0: it does not): the deadline of any call it starts. */
  speaksForMs(): number {
    return this.holds() ? this.speakUntil - this.clock() : 0;
  }

  term(): number {
    return this.taken;
  }

  /** Whether the lease is this replica's now (it may still be waiting out the old holder's calls). */
  private held(): boolean {
    return !this.stopped && this.mine !== null && this.clock() < this.speakUntil;
  }

  view(): LeaseView {
    const seen = this.seen?.claim ?? null;
    // Our own name only while we speak: a holder that could not renew does not know who holds it now.
    const holder = this.held()
      ? this.options.replica
      : seen?.holder === this.options.replica
        ? null
        : (seen?.holder ?? null);
    return {
      holder,
      this_replica: this.options.replica,
      expires_at: holder === null ? null : (seen?.expires_at ?? null),
    };
  }

  /** Hears when this replica starts or stops speaking; returns the way to stop. */
  onChange(listener: (holds: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes part from now on: a step now, then one every third of a lease (sooner when the lease seen runs out). */
  start(): void {
    this.stopped = false;
    void this.loop();
  }

  /** One round: renew the lease held, or read the slot and take the lease if it is free or ran out. */
  step(): Promise<void> {
    this.stepping ??= this.round().finally(() => {
      this.stepping = null;
      this.announce();
    });
    return this.stepping;
  }

  /** Stops taking part; a holder gives the lease up at once (a compare-and-swap), so another takes over without waiting. */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.stepping;
    const mine = this.mine;
    this.speakUntil = 0;
    this.mine = null;
    this.announce();
    if (mine !== null) await this.options.storage.swap(mine, { holder: null, expires_at: null }).catch(() => null);
  }

  private async loop(): Promise<void> {
    if (this.stopped) return;
    const started = this.clock();
    await this.step();
    if (this.stopped) return;
    const third = this.options.leaseMs / 3;
    // Renewals are spaced from when the last one was sent; one standing by also looks when the version it saw runs out.
    let next = started + third;
    const runsOut = this.mine === null && this.seen ? this.seen.at + this.options.leaseMs : Infinity;
    if (runsOut > this.clock()) next = Math.min(next, runsOut);
    this.timer = setTimeout(() => void this.loop(), Math.max(0, next - this.clock()));
    this.timer.unref();
  }

  private async round(): Promise<void> {
    const { replica, leaseMs, log } = this.options;
    if (this.mine !== null) {
      if (await this.write(this.mine)) return;
      if (this.mine !== null) return; // the slot could not be reached: still ours until speakUntil, tried again next round
      log.warn({ replica }, 'relayer lease lost: another replica wrote it first; standing by');
    }
    const current = await this.look();
    if (current === undefined || this.seen === null) return;
    const ranOut = current !== null && current.claim.holder !== null && this.clock() - this.seen.at >= leaseMs;
    if (current !== null && current.claim.holder !== null && !ranOut) return;
    if (!(await this.write(current?.version ?? null, ranOut))) return void (await this.look()); // lost the race: learn who won
    log.info(
      { replica, previous: current?.claim.holder ?? null },
      'relayer lease taken: this replica speaks to the relayers',
    );
  }

  /** Reads the slot, noting when this replica first saw its version; undefined when it cannot be read. */
  private async look(): Promise<{ version: string; claim: LeaseClaim } | null | undefined> {
    let current: { version: string; claim: LeaseClaim } | null;
    try {
      current = await this.options.storage.read();
    } catch (err) {
      this.options.log.warn(
        { replica: this.options.replica, error: (err as Error).message },
        'relayer lease: the slot cannot be read; standing by',
      );
      return undefined;
    }
    const version = current?.version ?? null;
    if (this.seen === null || version !== this.seen.version)
      this.seen = { version, claim: current?.claim ?? null, at: this.clock() };
    return current;
  }

  /** A compare-and-swap of the slot from `expected` to a lease of ours; true when it was written. */
  private async write(expected: string | null, takeover = false): Promise<boolean> {
    const sent = this.clock();
    const renewal = expected !== null && expected === this.mine;
    const claim: LeaseClaim = {
      holder: this.options.replica,
      expires_at: new Date(Date.now() + this.options.leaseMs).toISOString(),
    };
    let version: string | null;
    try {
      version = await this.options.storage.swap(expected, claim);
    } catch (err) {
      this.options.log.warn(
        { replica: this.options.replica, error: (err as Error).message },
        'relayer lease: could not write the slot',
      );
      return false;
    }
    if (version === null) {
      this.mine = null;
      this.speakUntil = 0;
      return false;
    }
    if (this.stopped) {
      await this.options.storage.swap(version, { holder: null, expires_at: null }).catch(() => null);
      return false;
    }
    this.mine = version;
    if (!renewal) this.taken++; // a renewal from our own version: nobody else wrote the slot, so nobody else spoke
    this.seen = { version, claim, at: sent };
    this.speakUntil = sent + this.options.leaseMs - this.options.leaseMs / 4;
    if (takeover) {
      const quiet = Math.min(this.options.callMs, this.options.leaseMs / 2);
      this.speakFrom = sent + quiet;
      setTimeout(() => this.announce(), Math.max(0, this.speakFrom - this.clock())).unref();
    }
    return true;
  }

  private announce(): void {
    const speaking = this.holds();
    if (speaking === this.wasSpeaking) return;
    this.wasSpeaking = speaking;
    for (const listener of this.listeners) listener(speaking);
  }
}
