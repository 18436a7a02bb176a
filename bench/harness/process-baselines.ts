/**
 * Baselines that are one-shot programs rather than servers: the durable-write loop (the disk's
 * limit for PATCH) and the bare read + parse of a folder (the floor for start-up). Each runs as its
 * own process and prints one JSON line, read back from its log file.
 */
import { readFileSync } from 'node:fs';
import { startProcess, stopProcess } from './processes.js';
import type { Row } from './results.js';
import { baselineScript } from './servers.js';

export interface ProcessRun<T> {
  /** From spawn to exit, ms. */
  wallMs: number;
  output: T;
}

export async function runBaseline<T>(
  name: string,
  script: string,
  env: Record<string, string>,
  deadlineMs: number,
): Promise<ProcessRun<T>> {
  const child = startProcess(name, process.execPath, [baselineScript(script)], env);
  const timer = setTimeout(() => void stopProcess(child), deadlineMs);
  try {
    const code = await child.exited;
    const wallMs = performance.now() - child.spawnedAt;
    if (code !== 0) throw new Error(`${name} exited with ${code}: ${child.stderr()}`);
    const lines = readFileSync(child.logFile, 'utf8').trim().split('\n');
    return { wallMs, output: JSON.parse(lines[lines.length - 1] ?? '{}') as T };
  } finally {
    clearTimeout(timer);
    await stopProcess(child);
  }
}

export interface DiskLoopOutput {
  ops: number;
  opsPerSec: number;
  p50: number;
  p99: number;
}

/** Best of `runs` loops of temp + fsync + rename + directory fsync in `dir`. */
export async function diskLoop(dir: string, durationS: number, runs: number): Promise<DiskLoopOutput[]> {
  const out: DiskLoopOutput[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await runBaseline<DiskLoopOutput>(
      `disk-loop-${i + 1}`,
      'disk-loop',
      { DIR: dir, DURATION_MS: String(durationS * 1000) },
      durationS * 1000 + 30_000,
    );
    out.push(run.output);
  }
  return out;
}

export interface ParseOutput {
  files: number;
  ms: number;
  sinceProcessStartMs: number;
}

/** One bare readFileSync + YAML.parse of every file of `dir`, as its own process. */
export function parseFolder(dir: string, run: number): Promise<ProcessRun<ParseOutput>> {
  return runBaseline<ParseOutput>(`parse-files-${run}`, 'parse-files', { DIR: dir }, 120_000);
}

/** The disk-limit row: the best loop's ops/s and its per-write p50/p99 (ms). */
export async function diskLoopRow(dir: string, durationS: number, runs: number): Promise<Row> {
  const loops = await diskLoop(dir, durationS, runs);
  const best = loops.reduce((a, b) => (b.opsPerSec > a.opsPerSec ? b : a));
  console.log(
    `${'PATCH disk limit | write temp + fsync + rename + dir fsync'.padEnd(48)} ` +
      `${best.opsPerSec.toFixed(0).padStart(7)} ops/s  p50 ${best.p50.toFixed(2)} ms  p99 ` +
      `${best.p99.toFixed(2)} ms`,
  );
  return {
    key: 'patch-1c/disk-loop',
    group: 'PATCH, 1 connection, distinct networks',
    server: 'disk limit: temp + fsync + rename + dir fsync loop',
    workload: `synchronous loop in ${dir}, 10 hidden target files, ${durationS} s`,
    connections: 1,
    reqPerSec: best.opsPerSec,
    fineP50: best.p50,
    fineP99: best.p99,
    note: `ops/s of each run: ${loops.map((l) => l.opsPerSec.toFixed(0)).join(', ')}`,
  };
}
