/**
 * RPC_PROBE_INTERVAL_MS: every URL of every network probed in the background, the networks spread
 * evenly over the interval (a thousand networks at 60 s: one every 60 ms), so the probes never come
 * as a burst that slows reads. Keeps the last health of each URL, and tells listeners when a URL's
 * status changes.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { claimedOf, enabledUrls, type Claimed, type ProbeStatus, type UrlHealth } from './chain-probe.js';
import type { Prober } from './prober.js';
import { showAs } from '../redact.js';

export interface ProbeJob {
  id: string;
  family: string;
  urls: string[];
  /** What may be shown of each of `urls` (a secret's value masked): all the prober keeps and tells. */
  shown: string[];
  /** Where each of `urls` is in the network's `rpc_urls` (disabled entries are not probed, so not always its place in `urls`). */
  indexes: number[];
  claimed: Claimed;
}

/**
 * What to probe of the networks served (their views with secrets revealed): each one's enabled URLs
 * (with `disabledToo`, the disabled ones as well: self-healing must see a disabled URL recover) and
 * the chain its file claims.
 */
export function jobsOf(
  networks: Iterable<{ id: string; fields: Record<string, unknown> }>,
  disabledToo = false,
): ProbeJob[] {
  const jobs: ProbeJob[] = [];
  for (const { id, fields } of networks) {
    const enabled = enabledUrls(fields, disabledToo);
    jobs.push({
      id,
      family: id.slice(0, id.indexOf(':')),
      urls: enabled.map((e) => e.url),
      shown: enabled.map((e) => e.shown),
      indexes: enabled.map((e) => e.index),
      claimed: claimedOf(fields),
    });
  }
  return jobs;
}

export interface RpcHealthChange {
  id: string;
  /** The URL's place in the network's `rpc_urls`. */
  index: number;
  url: string;
  status: ProbeStatus;
  previous: ProbeStatus | null;
}

/** One network's probe: each probed URL's health (as shown) with its place in rpc_urls. */
export interface NetworkProbe {
  id: string;
  results: Array<UrlHealth & { index: number }>;
}

export class LiveProber {
  private readonly health = new Map<string, UrlHealth[]>();
  private readonly listeners = new Set<(change: RpcHealthChange) => void>();
  private readonly probedListeners = new Set<(probe: NetworkProbe) => void>();
  private readonly stopping = new AbortController();
  private running: Promise<void> | null = null;
  private lastRoundAt: Date | null = null;

  constructor(
    private readonly prober: Prober,
    /** The networks to probe now (read again at the start of every round). */
    private readonly jobs: () => ProbeJob[],
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.running ??= this.rounds().catch(() => undefined);
  }

  /** Stops the rounds and ends the probes in flight. */
  async close(): Promise<void> {
    this.stopping.abort();
    this.prober.close();
    await this.running;
  }

  /** The last health of each URL of network `id`, or null when it was not probed yet. */
  of(id: string): UrlHealth[] | null {
    return this.health.get(id) ?? null;
  }

  /** URLs by status, for readiness. */
  summary(): { counts: Record<ProbeStatus, number>; last_round_at: string | null } {
    const counts: Record<ProbeStatus, number> = { ok: 0, wrong_chain: 0, lagging: 0, unreachable: 0, bad_response: 0 };
    for (const list of this.health.values()) for (const h of list) counts[h.status]++;
    return { counts, last_round_at: this.lastRoundAt?.toISOString() ?? null };
  }

  /** Each probed network's URL statuses, in the order of its URLs. */
  statuses(): Array<{ id: string; statuses: ProbeStatus[] }> {
    return [...this.health].map(([id, list]) => ({ id, statuses: list.map((h) => h.status) }));
  }

  onChange(listener: (change: RpcHealthChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hears every probe of a network, changed or not (self-healing counts verdicts in a row); returns the way to stop. */
  onProbed(listener: (probe: NetworkProbe) => void): () => void {
    this.probedListeners.add(listener);
    return () => this.probedListeners.delete(listener);
  }

  private async rounds(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      const started = performance.now();
      const jobs = this.jobs().filter((t) => this.prober.probes(t.family) && t.urls.length > 0);
      const gap = this.intervalMs / Math.max(1, jobs.length);
      // One timer at a time (a timer per network would put thousands of listeners on the abort signal).
      const probes: Array<Promise<void>> = [];
      for (const [k, job] of jobs.entries()) {
        await delay(Math.max(0, started + k * gap - performance.now()), undefined, { signal });
        probes.push(this.probe(job));
      }
      await Promise.all(probes);
      const kept = new Set(jobs.map((t) => t.id));
      for (const id of this.health.keys()) if (!kept.has(id)) this.health.delete(id);
      this.lastRoundAt = new Date();
      await delay(Math.max(0, this.intervalMs - (performance.now() - started)), undefined, { signal });
    }
  }

  private async probe(job: ProbeJob): Promise<void> {
    const results = (await this.prober.probeNetwork(job.family, job.urls, job.claimed)).map((h, i) =>
      showAs(h, job.shown[i] ?? h.url),
    );
    if (this.stopping.signal.aborted) return;
    const before = new Map((this.health.get(job.id) ?? []).map((h) => [h.url, h.status]));
    this.health.set(job.id, results);
    for (const [i, h] of results.entries()) {
      const previous = before.get(h.url) ?? null;
      if (previous !== h.status)
        for (const listener of this.listeners)
          listener({ id: job.id, index: job.indexes[i] ?? i, url: h.url, status: h.status, previous });
    }
    const probe = { id: job.id, results: results.map((h, i) => ({ ...h, index: job.indexes[i] ?? i })) };
    for (const listener of this.probedListeners) listener(probe);
  }
}
