/**
 * netcfg's metrics: one prom-client Registry per app (not the library's global one, so apps built
 * side by side in one process, as the tests build them, never share a series), prom-client's
 * default process metrics, and netcfg's families over the parts it is given when built: always
 * the store, and the live prober, the relayer sync and the self-healing when they run. Every
 * family but the HTTP requests reads its part at scrape time; nothing is pushed by the parts.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import { RequestFamilies } from './http-families.js';
import { autoHealFamilies, probeFamilies, type AutoHealCounts, type ProberSource } from './probe-families.js';
import { relayerFamilies, type RelayerSource } from './relayer-families.js';
import { storeFamilies, type StoreSource } from './store-families.js';

/** prom-client's default gauges whose `_total` suffix says counter: their per-type twins (`nodejs_active_handles`, ...) carry the same counts. */
const MISNAMED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

export type { AutoHealCounts } from './probe-families.js';

export interface MetricsParts {
  store: StoreSource;
  /** RPC_PROBE_INTERVAL_MS: the live prober. */
  prober?: ProberSource | undefined;
  /** RELAYER_SYNC_FILE: the relayer sync. */
  relayers?: RelayerSource | undefined;
  /** RPC_AUTO_DISABLE: the self-healing's counts. */
  autoHeal?: AutoHealCounts | undefined;
}

export class Metrics {
  private readonly registry = new Registry();
  private readonly requests: RequestFamilies;
  /** What each scrape reads once and shares between families, taken anew at the next. */
  private readonly snapshots: Array<{ clear(): void }> = [];

  constructor(parts: MetricsParts) {
    collectDefaultMetrics({ register: this.registry });
    // Gauges named like counters, which `promtool check metrics` rejects; the same counts stay, per type, without `_total`.
    for (const name of MISNAMED_DEFAULTS) this.registry.removeSingleMetric(name);
    this.requests = new RequestFamilies(this.registry);
    this.snapshots.push(storeFamilies(this.registry, parts.store));
    if (parts.prober) this.snapshots.push(probeFamilies(this.registry, parts.prober));
    if (parts.relayers) this.snapshots.push(relayerFamilies(this.registry, parts.relayers));
    if (parts.autoHeal) this.snapshots.push(autoHealFamilies(this.registry, parts.autoHeal));
  }

  /** Lets go of the default metrics' collectors (the event-loop monitor among them): nothing is scraped after. */
  close(): void {
    this.registry.clear();
  }

  /** The exposition's media type (Prometheus text format 0.0.4). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every family as of now, in Prometheus' text format. */
  text(): Promise<string> {
    for (const snapshot of this.snapshots) snapshot.clear();
    return this.registry.metrics();
  }

  /** One request answered (the HTTP layer's middleware): `route` is its template, null when no route took it. */
  observeRequest(route: string | null, method: string, status: number, seconds: number): void {
    this.requests.observe(route, method, status, seconds);
  }
}
