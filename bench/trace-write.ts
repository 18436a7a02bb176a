/**
 * Where a one-connection PATCH's time goes, step by step, in netcfg and in the write floor
 * (baselines/write-floor.ts) side by side: `npx tsx bench/trace-write.ts [rounds] [seconds]`
 * (default 3 rounds of 6 s).
 *
 * The one-connection row waits on each step in turn, so a CPU profile (bench/profile.ts) shows
 * what the CPU does but not what the request waits for. This stamps copies of both builds at each
 * step (harness/trace-points.ts), runs the row's load on each (fresh folder, `sync`, a 3 s
 * warm-up, then one run; floor and netcfg alternate, `rounds` times), and prints the mean and
 * median of every step over all rounds, and what netcfg's steps add to the floor's. The stamps
 * cost ~1 us each (~20 per PATCH): rates here are a little below make bench's.
 * Needs `npm run build` (dist/) and the fixtures of a make bench run (it makes missing ones).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureFixture, fixtureDir, PROJECT_DIR, scratchCopy, sortedIds, TMP_DIR } from './harness/fixtures.js';
import { percentileOf } from './harness/http-poll.js';
import { installCleanup, stopProcess, waitIdle } from './harness/processes.js';
import { compileBaselines, startNetcfg, startWriteFloor, waitWatching, type Server } from './harness/servers.js';
import { SENT_AT_HEADER, traceFloor, traceNetcfg } from './harness/trace-points.js';
import { patchOneConnection } from './harness/write-rows.js';

/** A request's stamps (ms, absolute) and values (gcMs, d:previousCleanupMs); absent when not reached. */
type Row = Partial<Record<string, number>>;

/** netcfg's first seconds of writes run ~15% slower than the next (JIT, the disk's first writes in .locks/ and .tmp/). */
const WARMUP_S = 3;

/**
 * A step: the stamps it runs between (`d:` stamps are the disk thread's; `a|b` is the first of
 * them the row has), or `value`, a figure the row carries. `beside`: not on the request's path,
 * it runs beside a step that is (shown, not summed).
 */
type Step = { name: string; beside?: boolean } & ({ from: string; to: string } | { value: string });

const STEPS: Step[] = [
  { name: 'response sent -> the client makes the next request (1)', from: 'previousFinish', to: 'clientSent' },
  { name: 'request made -> first middleware (2)', from: 'clientSent', to: 'frame' },
  { name: 'middleware -> route handler (body read, router)', from: 'frame', to: 'route' },
  { name: 'route -> hand-off (netcfg: the next three)', from: 'route', to: 'send' },
  { name: "  validate the body, take the network's turn", from: 'route', to: 'attempt', beside: true },
  { name: '  read the file (stat + read)', from: 'attempt', to: 'read', beside: true },
  { name: '  ETag, If-Match, parse (cached), diff, splice', from: 'read', to: 'send', beside: true },
  // One step: the disk thread may start before postMessage has returned on the main thread.
  { name: 'postMessage, the disk thread wakes', from: 'send', to: 'd:recv' },
  { name: 'lock folder (mkdir)', from: 'd:recv', to: 'd:locked' },
  { name: 'temp file: create, write, fsync, close', from: 'd:locked', to: 'd:synced' },
  { name: "netcfg: the temp file's stat, the go-ahead", from: 'd:synced', to: 'd:go' },
  { name: 'netcfg: read + compare the file, rename / floor: rename', from: 'd:go|d:synced', to: 'd:renamed' },
  { name: 'netcfg: stat of the renamed file', from: 'd:renamed', to: 'd:stamped' },
  { name: 'folder fsync', from: 'd:stamped|d:renamed', to: 'd:dirsynced' },
  { name: 'answer made, -> main thread', from: 'd:dirsynced', to: 'answer' },
  { name: 'index update, record', from: 'answer', to: 'done' },
  { name: 'back to the route, ETag + body, log line (3)', from: 'done', to: 'frameEnd' },
  { name: 'response written (finish)', from: 'frameEnd', to: 'finish' },
  { name: 'beside: the check (parse, validate the new text)', from: 'sent', to: 'checked', beside: true },
  { name: 'beside: disk thread after its answer (4)', value: 'd:previousCleanupMs', beside: true },
  { name: 'beside: GC on the main thread', value: 'gcMs', beside: true },
];

const NOTES = [
  '(1) the kernel, and the client (autocannon, in the process that runs this) reading the response.',
  "(2) the kernel, Node's HTTP parser, and whatever the main thread runs before it (netcfg: the watcher's events, timers).",
  '(3) the floor: its route only sets the ETag and the body.',
  '(4) netcfg: rmdir of the lock folder, close of the replaced file (which frees it); the floor: rmdir (its rename freed the file).',
];

/** The step's length in us for one row, or undefined when the row lacks its stamps. */
function length(step: Step, row: Row): number | undefined {
  if ('value' in step) {
    const value = row[step.value];
    return value === undefined ? undefined : value * 1000;
  }
  const from = step.from.split('|').map((k) => row[k]).find((v) => v !== undefined);
  const to = row[step.to];
  return from === undefined || to === undefined ? undefined : (to - from) * 1000;
}

function summary(values: number[]): { mean: number; p50: number } | null {
  if (values.length === 0) return null;
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, p50: percentileOf(values, 0.5) };
}

function readRows(file: string, skipMs: number): Row[] {
  if (!existsSync(file)) return [];
  const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Row);
  const first = rows[0]?.frame ?? 0;
  return rows.filter((r) => (r.frame ?? first) - first >= skipMs);
}

async function runRow(server: Server, ids: string[], seconds: number): Promise<number> {
  const row = await patchOneConnection(server, server.name, ids, { durationS: seconds, warmupS: WARMUP_S, runs: 1 }, SENT_AT_HEADER);
  return row.reqPerSec ?? 0;
}

function count(arg: string | undefined, fallback: number, what: string): number {
  const n = Number(arg ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`usage: npx tsx bench/trace-write.ts [rounds] [seconds]: ${what} must be a whole number >= 1, not ${arg}`);
  return n;
}

async function main(): Promise<void> {
  const rounds = count(process.argv[2], 3, 'rounds');
  const seconds = count(process.argv[3], 6, 'seconds');
  installCleanup();
  ensureFixture(1_000);
  const dir = path.join(TMP_DIR, 'trace');
  rmSync(dir, { recursive: true, force: true });
  // Copies of both builds, stamped.
  const netcfgDir = path.join(dir, 'netcfg');
  cpSync(path.join(PROJECT_DIR, 'dist', 'src'), netcfgDir, { recursive: true });
  const floorDir = path.join(dir, 'floor');
  compileBaselines(floorDir);
  const out = { netcfg: path.join(dir, 'netcfg.jsonl'), floor: path.join(dir, 'floor.jsonl') };
  traceNetcfg(netcfgDir, out.netcfg);
  traceFloor(floorDir, out.floor);

  const ids = sortedIds(1_000).filter((_, i) => i % 20 === 0); // as make bench's one-connection rows
  const rates = { netcfg: [] as number[], floor: [] as number[] };
  const rows = { netcfg: [] as Row[], floor: [] as Row[] };
  for (let round = 0; round < rounds; round++) {
    for (const which of ['floor', 'netcfg'] as const) {
      rmSync(out[which], { force: true });
      const folder = scratchCopy(fixtureDir(1_000), 'trace-1k');
      execFileSync('sync'); // the copy's write-back would slow the disk under the row
      let server: Server;
      if (which === 'netcfg') {
        server = await startNetcfg('netcfg', folder, { main: path.join(netcfgDir, 'main.js'), logName: 'trace-netcfg' });
        await waitWatching(server);
      } else {
        server = await startWriteFloor(path.join(folder, 'evm'), path.join(floorDir, 'write-floor.js'), 'trace-floor');
      }
      await waitIdle(60_000);
      rates[which].push(await runRow(server, ids, seconds));
      await stopProcess(server.child); // the rows are written as it exits
      rows[which].push(...readRows(out[which], WARMUP_S * 1000 + 500)); // the warm-up, and a little more
    }
  }
  report(rates, rows);
}

function report(rates: Record<'netcfg' | 'floor', number[]>, rows: Record<'netcfg' | 'floor', Row[]>): void {
  const cell = (s: { mean: number; p50: number } | null): string => (s === null ? '-' : `${s.mean.toFixed(1)} (${s.p50.toFixed(1)})`).padStart(16);
  const signed = (n: number): string => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;
  console.log(`\nPATCH/s per round: netcfg ${rates.netcfg.map((r) => r.toFixed(0)).join(' / ')}, floor ${rates.floor.map((r) => r.toFixed(0)).join(' / ')}`);
  console.log(`requests traced: netcfg ${rows.netcfg.length}, floor ${rows.floor.length}; us, mean (median)\n`);
  console.log(`${'step'.padEnd(60)} ${'netcfg'.padStart(16)} ${'floor'.padStart(16)}  netcfg - floor`);
  const sums = { netcfg: 0, floor: 0 };
  for (const step of STEPS) {
    const n = summary(rows.netcfg.map((r) => length(step, r)).filter((v): v is number => v !== undefined));
    const f = summary(rows.floor.map((r) => length(step, r)).filter((v): v is number => v !== undefined));
    if (!step.beside) {
      sums.netcfg += n?.mean ?? 0;
      sums.floor += f?.mean ?? 0;
    }
    console.log(`${step.name.padEnd(60)} ${cell(n)} ${cell(f)}  ${step.beside ? '' : signed((n?.mean ?? 0) - (f?.mean ?? 0))}`);
  }
  console.log(`${'the steps on the path, summed'.padEnd(60)} ${sums.netcfg.toFixed(1).padStart(16)} ${sums.floor.toFixed(1).padStart(16)}  ${signed(sums.netcfg - sums.floor)}`);
  console.log(`\n${NOTES.join('\n')}`);
}

await main();
