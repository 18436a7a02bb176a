/**
 * HTTP requests by route template, method and status: a histogram of durations, observed as each
 * request ends (the one place the metrics are told rather than asked, since a duration exists only
 * then), and a counter of the same requests read from counts kept here at scrape time, so a request
 * costs one prom-client observation, not two. The labels are bounded: the route is a template
 * netcfg registered (or `unmatched`), the method one of a closed list (or `other`), the status a number.
 */
import { Histogram, type Registry } from 'prom-client';
import { counterFrom } from './families.js';

/** The label of a request no route took (404 for an unknown path, 405 for a wrong method): one value for any path. */
export const UNMATCHED = 'unmatched';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** From a GET at a fraction of a millisecond to a PATCH waiting for a git remote (seconds). */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type Label = 'route' | 'method' | 'status';

export class RequestFamilies {
  private readonly durations: Histogram<Label>;
  /** Requests by `route method status`, with their labels: what the counter reads at each scrape. */
  private readonly counts = new Map<string, { labels: Record<Label, string>; n: number }>();

  constructor(registry: Registry) {
    const labelNames = ['route', 'method', 'status'] as const;
    counterFrom(registry, {
      name: 'netcfg_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status.',
      labelNames,
      series: () => [...this.counts.values()].map(({ labels, n }) => [labels, n]),
    });
    this.durations = new Histogram({
      name: 'netcfg_http_request_duration_seconds',
      help: 'Time from a request reaching netcfg to its answer being produced (for the change stream: until it is open), by route template, method and status.',
      labelNames,
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  /** One request answered: `route` is its template (or null when no route took it). */
  observe(route: string | null, method: string, status: number, seconds: number): void {
    const shown = { route: route ?? UNMATCHED, method: METHODS.has(method) ? method : 'other' };
    const key = `${shown.route} ${shown.method} ${status}`;
    let seen = this.counts.get(key);
    if (seen === undefined) {
      seen = { labels: { ...shown, status: String(status) }, n: 0 };
      this.counts.set(key, seen);
    }
    seen.n++;
    this.durations.observe(seen.labels, seconds);
  }
}
