/**
 * What a bench run produces: measured rows (one server, one workload) and the targets of issue 6
 * checked against them as ratios from the same run. Kept apart from the rows so that a target can
 * compare any two rows (netcfg against a baseline, netcfg against itself at another scale).
 */
import type { LoadResult } from './load.js';

export interface Row {
  /** Stable key, e.g. `get-one/netcfg`. */
  key: string;
  group: string;
  server: string;
  /** What was asked, e.g. `GET /api/v1/networks/evm:mainnet-000012`. */
  workload: string;
  connections?: number;
  reqPerSec?: number;
  p50?: number;
  p99?: number;
  fineP50?: number;
  fineP99?: number;
  /** Server CPU time (user + system) per response, microseconds. */
  cpuUsPerReq?: number;
  statusCodes?: Record<string, number>;
  errors?: number;
  /** For rows that are not req/s: the figure and its unit (ms, MB, ops/s...). */
  value?: number;
  unit?: string;
  note?: string;
  runs?: Array<{ reqPerSec: number; p50: number; p99: number; cpuUsPerReq?: number }>;
}

export interface Check {
  /** Key of the row the target is about (shown on that row of the table). */
  row: string;
  target: string;
  /** The measured ratio (or value) compared with `required`. */
  ratio: number;
  required: number;
  /** `min`: ratio must be >= required; `max`: ratio must be <= required. */
  direction: 'min' | 'max';
  met: boolean;
  /** How the ratio was computed, e.g. `48,120 / 45,300 req/s`. */
  basis: string;
}

export interface Results {
  date: string;
  node: string;
  cpus: number;
  cpuModel: string;
  mode: 'full' | 'quick';
  timing: { durationS: number; warmupS: number; runs: number };
  logLevel: string;
  rows: Row[];
  checks: Check[];
  notes: string[];
  elapsedS: number;
}

export function loadRow(
  key: string,
  group: string,
  server: string,
  workload: string,
  connections: number,
  r: LoadResult,
  note?: string,
): Row {
  return {
    key,
    group,
    server,
    workload,
    connections,
    reqPerSec: r.reqPerSec,
    p50: r.p50,
    p99: r.p99,
    fineP50: r.fineP50,
    fineP99: r.fineP99,
    ...(r.cpuUsPerReq === undefined ? {} : { cpuUsPerReq: r.cpuUsPerReq }),
    statusCodes: r.statusCodes,
    errors: r.errors,
    runs: r.runs.map((x) => ({
      reqPerSec: x.reqPerSec,
      p50: x.p50,
      p99: x.p99,
      ...(x.cpuUsPerReq === undefined ? {} : { cpuUsPerReq: x.cpuUsPerReq }),
    })),
    ...(note === undefined ? {} : { note }),
  };
}

export function check(
  row: string,
  target: string,
  ratio: number,
  required: number,
  direction: 'min' | 'max',
  basis: string,
): Check {
  const met = Number.isFinite(ratio) && (direction === 'min' ? ratio >= required : ratio <= required);
  return { row, target, ratio, required, direction, met, basis };
}

/** a / b, with 0/0 taken as 1 (two p99s of 0 ms at autocannon's 1 ms resolution are equal). */
export function ratioOf(a: number, b: number): number {
  if (a === 0 && b === 0) return 1;
  return b === 0 ? Infinity : a / b;
}

export function fmt(n: number | undefined, digits = 0): string {
  if (n === undefined || !Number.isFinite(n)) return n === Infinity ? 'inf' : '-';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
