/**
 * The two shapes every netcfg family takes, through prom-client's documented API (a `collect()`
 * that sets the values at scrape time, `reset()` first so a series whose subject is gone, a
 * removed network or URL, leaves the output at once), and the per-scrape snapshot they read.
 * State is read from the parts' public methods when Prometheus asks, never pushed by them.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** One series: its label values and its value. */
export type Series<L extends string> = [labels: Partial<Record<L, string>>, value: number];

export interface Family<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Every series as of now, read at each scrape. */
  series: () => Iterable<Series<L>>;
}

/** A gauge whose series are exactly those `series()` gives at each scrape. */
export function gaugeFrom<L extends string>(
  registry: Registry,
  { name, help, labelNames, series }: Family<L>,
): Gauge<L> {
  return new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of series()) this.set(labels, value);
    },
  });
}

/**
 * A counter whose values are counts a part keeps since start (only ever growing), read at each
 * scrape: the part counts once, and every registry reads the same numbers.
 */
export function counterFrom<L extends string>(
  registry: Registry,
  { name, help, labelNames, series }: Family<L>,
): Counter<L> {
  return new Counter<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of series()) this.inc(labels, value);
    },
  });
}

/**
 * A value taken once per scrape and shared by the families that read it (readiness is built once,
 * not once per family); `clear()` before each scrape makes the next read take it anew.
 */
export class PerScrape<T> {
  private taken: { value: T } | null = null;

  constructor(private readonly take: () => T) {}

  read(): T {
    this.taken ??= { value: this.take() };
    return this.taken.value;
  }

  clear(): void {
    this.taken = null;
  }
}

/** Seconds since an ISO time, or null when there is none yet. */
export function ageSeconds(iso: string | null | undefined, now = Date.now()): number | null {
  if (!iso) return null;
  return Math.max(0, (now - Date.parse(iso)) / 1000);
}
