/**
 * One load row: autocannon (programmatic API) against one server, a warm-up run whose numbers are
 * thrown away, then the best of N timed runs by mean req/s. The figures are autocannon's own
 * (requests.average, latency.p50, latency.p99; its latency histogram has 1 ms resolution), plus
 * p50/p99 at microsecond precision from its per-response event, for rows where 1 ms is too coarse.
 */
import autocannon from 'autocannon';
import { cpuMs } from './processes.js';

export interface Timing {
  durationS: number;
  warmupS: number;
  runs: number;
}

export interface LoadSpec {
  url: string;
  connections: number;
  method?: 'GET' | 'PATCH';
  headers?: Record<string, string>;
  body?: string;
  /** Per-connection setup: lets each connection own its network and its request sequence. */
  setupClient?: (client: autocannon.Client) => void;
  /** The server's pid: its CPU time per response is measured too (robust on a shared machine). */
  pid?: number;
}

export interface RunResult {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Microsecond-precision percentiles of every response (any status). */
  fineP50: number;
  fineP99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Server CPU (user + system) per response, microseconds; undefined without a pid. */
  cpuUsPerReq?: number;
}

export interface LoadResult extends RunResult {
  runs: RunResult[];
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

export async function runOnce(spec: LoadSpec, durationS: number): Promise<RunResult> {
  let times = new Float64Array(1 << 16);
  let count = 0;
  const cpuBefore = spec.pid === undefined ? 0 : cpuMs(spec.pid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: durationS,
        method: spec.method ?? 'GET',
        headers: spec.headers,
        body: spec.body,
        setupClient: spec.setupClient,
        timeout: 10,
      },
      (err: unknown, res: autocannon.Result) =>
        err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res),
    );
    instance.on('response', (_client: autocannon.Client, _status: number, _bytes: number, responseTime: number) => {
      if (count === times.length) {
        const bigger = new Float64Array(times.length * 2);
        bigger.set(times);
        times = bigger;
      }
      times[count++] = responseTime;
    });
  });
  const cpuUsPerReq =
    spec.pid === undefined || count === 0 ? undefined : ((cpuMs(spec.pid) - cpuBefore) * 1000) / count;
  const sorted = times.subarray(0, count).sort();
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    fineP50: percentile(sorted, 0.5),
    fineP99: percentile(sorted, 0.99),
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    ...(cpuUsPerReq === undefined ? {} : { cpuUsPerReq }),
  };
}

/** Warm-up, then `runs` timed runs; the best by req/s is the row's figure. */
export async function measure(spec: LoadSpec, timing: Timing): Promise<LoadResult> {
  if (timing.warmupS > 0) await runOnce(spec, timing.warmupS);
  const runs: RunResult[] = [];
  for (let i = 0; i < timing.runs; i++) runs.push(await runOnce(spec, timing.durationS));
  const best = runs.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
  return { ...best, runs };
}

/**
 * Several servers under the same workload, their runs interleaved (A B C, A B C) so that a slow
 * moment of a shared machine is shared too, instead of landing on whichever server ran then.
 * Each run has its own warm-up right before it: a server waits idle while the others run (40 s
 * with five servers), and V8 shrinks an idle process's young generation, so a run that started
 * cold spent its first seconds in extra scavenges that cost in proportion to the server's heap
 * (bench/README.md, session of 2026-11-23 night 4).
 */
export async function measureInterleaved(specs: LoadSpec[], timing: Timing): Promise<LoadResult[]> {
  const runs: RunResult[][] = specs.map(() => []);
  for (let i = 0; i < timing.runs; i++) {
    for (let s = 0; s < specs.length; s++) {
      const spec = specs[s] as LoadSpec;
      if (timing.warmupS > 0) await runOnce(spec, timing.warmupS);
      (runs[s] as RunResult[]).push(await runOnce(spec, timing.durationS));
    }
  }
  return runs.map((list) => ({ ...list.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a)), runs: list }));
}

/** A one-line summary for the console while the bench runs. */
export function describe(label: string, r: RunResult): string {
  const codes = Object.entries(r.statusCodes)
    .map(([c, n]) => `${c}:${n}`)
    .join(' ');
  const cpu = r.cpuUsPerReq === undefined ? '' : `  cpu ${r.cpuUsPerReq.toFixed(0)} us/req`;
  return (
    `${label.padEnd(48)} ${r.reqPerSec.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
    `(fine p50 ${r.fineP50.toFixed(2)} p99 ${r.fineP99.toFixed(2)})${cpu}  ${codes}${r.errors ? ` errors:${r.errors}` : ''}`
  );
}
