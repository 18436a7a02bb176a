/**
 * `make bench` (`npx tsx bench/run.ts [--quick]`): netcfg against baselines started in the same
 * run, on loopback, then bench/results.json, BENCHMARKS.md and bench/ratios.svg. Every phase stops
 * what it started in a finally block; a watchdog ends the run before 10 minutes whatever happens.
 * A phase that fails is noted and the run goes on, so one broken row does not hide the others;
 * the exit code is then 1. Missed targets do not fail the run: they are what the table is for.
 * `--only=<word>` runs only the phases whose name holds it (`--only=metrics`): a row being worked on
 * is checked without the whole run, its reports written only with BENCH_OUT_DIR.
 */
import os from 'node:os';
import path from 'node:path';
import { writeChart } from './harness/chart.js';
import { gitCheckoutRow, visibilityRow } from './harness/disk-change-rows.js';
import { gitSyncRows } from './harness/git-sync-rows.js';
import { probeRows } from './harness/probe-rows.js';
import { relayerFailoverRows } from './harness/relayer-failover-rows.js';
import { relayerRows } from './harness/relayer-rows.js';
import { metricsRows } from './harness/metrics-rows.js';
import { tokensParseRow } from './harness/tokens-rows.js';
import {
  dbJsonPath,
  ensureDbJson,
  ensureFixture,
  fixtureDir,
  scratchCopy,
  sortedIds,
  TMP_DIR,
} from './harness/fixtures.js';
import type { Timing } from './harness/load.js';
import { diskLoopRow } from './harness/process-baselines.js';
import {
  installCleanup,
  rssMb,
  setPriorityAll,
  stopAll,
  stopProcess,
  waitIdle,
  type Child,
} from './harness/processes.js';
import { checkSameAnswers, readRows, readTokens } from './harness/read-rows.js';
import { writeReports } from './harness/report.js';
import type { Results, Row } from './harness/results.js';
import {
  compileBaselines,
  launchNetcfg,
  startBaseline,
  startJsonServer,
  startNetcfg,
  waitWatching,
  type Launched,
  type Server,
} from './harness/servers.js';
import { memoryRow, startupRows } from './harness/startup-rows.js';
import { evaluateTargets } from './harness/targets.js';
import { patchCpuRow, patchOneConnection, patchOneNetworkIfMatch, patchTenDistinct } from './harness/write-rows.js';

const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const timing: Timing = quick ? { durationS: 2, warmupS: 0.5, runs: 2 } : { durationS: 10, warmupS: 1, runs: 2 };
const WATCHDOG_MS = (quick ? 8 : 15) * 60_000;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const ORDER = [
  'get-one/',
  'list-10/',
  'list-10@100k/',
  'list-100/',
  'list-100@100k/',
  'patch-1c/',
  'patch-cpu/',
  'patch-10c/',
  'patch-one/',
  'git-push-1c/',
  'git-push-10w/',
  'git-visible/',
  'probe-get/',
  'probe-validate/',
  'tokens-parse/',
  'relayer-pass/',
  'relayer-visible/',
  'relayer-cpu/',
  'relayer-get/',
  'relayer-failover/',
  'metrics-get/',
  'metrics-scrape/',
  'visible/',
  'startup/',
  'startup-warm/',
  'git/',
  'memory/',
];

const rows: Row[] = [];
const notes: string[] = [];
const rss: Array<{ networks: number; mb: number }> = [];
let failed = false;
const startedAt = performance.now();

/** Runs one phase; whatever it started is stopped at its end, except the children in `keep`. */
async function phase(name: string, fn: () => Promise<void>, keep: () => Child[] = () => []): Promise<void> {
  if (only !== undefined && !name.includes(only)) return;
  const started = performance.now();
  console.log(`\n== ${name}`);
  try {
    await fn();
  } catch (err) {
    failed = true;
    const message = (err as Error).stack ?? String(err);
    console.error(`bench: phase "${name}" failed: ${message}`);
    notes.push(`phase "${name}" FAILED: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    await stopAll(keep());
    console.log(`   (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
}

/** RSS right after ready, then waits for the watcher to be up (its walk of the folder comes after ready). */
async function stamp(server: Server, networks: number): Promise<void> {
  const mb = rssMb(server.child.pid);
  rss.push({ networks, mb });
  const t = performance.now();
  await waitWatching(server, 300_000);
  const watching = performance.now() - server.child.spawnedAt;
  notes.push(
    `${server.name}: ready ${(server.readyAt - server.child.spawnedAt).toFixed(0)} ms after spawn (RSS then ${mb.toFixed(1)} MB), ` +
      `its watcher running ${watching.toFixed(0)} ms after spawn (waited ${(performance.now() - t).toFixed(0)} ms here before measuring)`,
  );
}

async function main(): Promise<void> {
  installCleanup();
  setTimeout(() => {
    console.error(
      `bench: still running after ${WATCHDOG_MS / 60_000} minutes; stopping everything and writing what was measured`,
    );
    notes.push(`STOPPED by the ${WATCHDOG_MS / 60_000}-minute watchdog: the rows after this point are missing`);
    void stopAll()
      .then(() => finish())
      .finally(() => process.exit(3));
  }, WATCHDOG_MS).unref();
  if (process.env.BENCH_NETCFG_MAIN)
    notes.push(`netcfg was run from BENCH_NETCFG_MAIN=${process.env.BENCH_NETCFG_MAIN}, not dist/src/main.js`);
  if (LOG_LEVEL !== 'info')
    notes.push(`netcfg ran with LOG_LEVEL=${LOG_LEVEL} (BENCH_LOG_LEVEL): its access log was off`);
  console.log(
    `netcfg bench, ${quick ? 'quick' : 'full'} mode: ${timing.durationS} s per run, best of ` +
      `${timing.runs}, ${timing.warmupS} s warm-up; netcfg LOG_LEVEL=${LOG_LEVEL}`,
  );

  // One tokens file for every netcfg of the read rows, written once.
  const tokens = readTokens(TMP_DIR);
  let dir1k = '';
  let db1k = '';
  await phase('fixtures', async () => {
    for (const n of [1_000, 10_000, 100_000]) {
      const t = performance.now();
      if (ensureFixture(n))
        console.log(`   wrote ${n} networks to ${fixtureDir(n)} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    ensureDbJson(1_000);
    compileBaselines();
    dir1k = scratchCopy(fixtureDir(1_000), 'net-1k');
    db1k = scratchCopy(dbJsonPath(1_000), 'db-1k.json');
  });
  if (dir1k === '' && only === undefined) throw new Error('no fixtures, nothing to measure');
  const ids = sortedIds(1_000);
  const sampleId = ids[500] as string;
  // The networks every one-connection PATCH row writes, in turn: the same 50 for each server.
  const oneConnectionIds = ids.filter((_, i) => i % 20 === 0);

  await phase('startup, 10,000 files', async () => {
    const startup = await startupRows(quick ? 2 : 3);
    rows.push(...startup.rows);
    rss.push({ networks: 10_000, mb: startup.rss10k });
  });

  // The write rows before netcfg on 100,000 files starts loading: at nice 19 it still takes the
  // CPU a one-connection row leaves idle (79% of a core while it walks its folder), and that row
  // then ran ~30% slower (705 against 1,061 PATCH/s, bench/README.md), where the disk loop it is
  // compared with ran before it. Side by side, in this order: the three one-connection rows
  // (json-server, the disk's limit, netcfg), then netcfg's other write rows.
  await phase('writes', async () => {
    const jsonServer = await startJsonServer(db1k);
    rows.push(await patchOneConnection(jsonServer, 'json-server 0.17.4', oneConnectionIds, timing));
    await stopProcess(jsonServer.child);
    // Before netcfg starts: no watcher looks at the folder it writes in.
    rows.push(await diskLoopRow(path.join(dir1k, 'evm'), timing.durationS, timing.runs));
    const netcfg = await startNetcfg('netcfg', dir1k, { logLevel: LOG_LEVEL, logName: 'netcfg-writes' });
    rows.push(await visibilityRow(netcfg, dir1k, 200, 1_000));
    const patch1c = await patchOneConnection(netcfg, 'netcfg (1,000 networks)', oneConnectionIds, timing);
    rows.push(patch1c, patchCpuRow(patch1c));
    rows.push(
      await patchTenDistinct(
        netcfg,
        'netcfg (1,000 networks)',
        ids.filter((_, i) => i % 100 === 50),
        timing,
      ),
    );
    rows.push(await patchOneNetworkIfMatch(netcfg, 'netcfg (1,000 networks)', ids[123] as string, timing));
  });

  await phase('tokens file: 4,000 and 32,000 entries parsed', async () => {
    rows.push(tokensParseRow(quick ? 2 : 5));
  });

  await phase('git sync: two replicas on a git daemon remote', async () => {
    rows.push(...(await gitSyncRows(timing)));
  });

  await phase('RPC prober: 1,000 networks x 3 URLs on loopback', async () => {
    rows.push(...(await probeRows(timing, LOG_LEVEL)));
  });

  await phase('relayer sync: three stand-in relayers on loopback', async () => {
    rows.push(...(await relayerRows(timing, LOG_LEVEL)));
  });

  await phase('relayer failover: the lease holder of two replicas killed', async () => {
    rows.push(...(await relayerFailoverRows(quick ? 2 : 3, LOG_LEVEL)));
  });

  await phase('metrics: GET /metrics over 1,000 networks x 3 URLs probed', async () => {
    rows.push(...(await metricsRows(timing, LOG_LEVEL)));
  });

  // netcfg takes a minute or more to load 100,000 files: it loads in the background at the lowest
  // CPU priority (nice 19) while the git phase is timed, and is put back to normal priority
  // (every thread of it: see setPriorityAll) before its own rows. Not before the start-up rows: those use both cores, and the loading
  // server's garbage-collector threads (started before its nice 19) would compete with them.
  let background: Launched | undefined;
  await phase(
    'start netcfg on 100,000 files in the background (nice 19)',
    async () => {
      const nodeArgs = (process.env.BENCH_100K_NODE_ARGS ?? '').split(' ').filter(Boolean);
      background = await launchNetcfg('netcfg-100k', fixtureDir(100_000), {
        logLevel: LOG_LEVEL,
        env: tokens.env,
        deadlineMs: 400_000,
        nice: 19,
        nodeArgs,
      });
      notes.push('netcfg-100k loaded in the background at nice 19 during the git phase (see "ready ... after spawn")');
    },
    () => (background ? [background.child] : []),
  );
  const keep = (): Child[] => (background ? [background.child] : []);

  await phase(
    'git checkout, 1,000 of 10,000 files',
    async () => {
      rows.push(await gitCheckoutRow(quick ? 2 : 4));
    },
    keep,
  );

  await phase('reads: 1,000 networks on every server, and 100,000 on netcfg', async () => {
    // --only=reads runs these rows alone: without the 100,000-network server and its rows.
    if (!background && only === undefined) throw new Error('netcfg on 100,000 files was not started');
    if (only !== undefined) {
      ensureFixture(1_000);
      ensureDbJson(1_000);
      compileBaselines();
    }
    let large: Server | undefined;
    if (background) {
      const waitStarted = performance.now();
      large = { ...(await background.ready), headers: tokens.headers };
      const waited = performance.now() - waitStarted;
      if (waited > 1000) console.log(`   waited ${(waited / 1000).toFixed(1)} s more for netcfg on 100,000 files`);
      setPriorityAll(large.child.pid, 0);
      await stamp(large, 100_000);
    }
    const raw = await startBaseline('raw-http', dbJsonPath(1_000));
    const koa = await startBaseline('koa-app', dbJsonPath(1_000));
    const jsonServer = await startJsonServer(scratchCopy(dbJsonPath(1_000), 'db-1k-reads.json'));
    // A fresh copy: the write phase changed the other one (the pages must match the baselines').
    const netcfg = {
      ...(await startNetcfg('netcfg', scratchCopy(fixtureDir(1_000), 'net-1k-reads'), {
        logLevel: LOG_LEVEL,
        env: tokens.env,
      })),
      headers: tokens.headers,
    };
    await stamp(netcfg, 1_000);
    const targets = { raw, koa, jsonServer, netcfg, netcfgLarge: large };
    await checkSameAnswers(targets, sampleId);
    const idle = await waitIdle();
    notes.push(
      idle.busy.length === 0
        ? `reads: every server idle before the read rows (waited ${(idle.waitedMs / 1000).toFixed(1)} s for that)`
        : `reads: still busy after ${(idle.waitedMs / 1000).toFixed(0)} s, measured anyway: ${idle.busy.join(', ')}`,
    );
    rows.push(...(await readRows(targets, sampleId, timing)));
  });

  finish();
}

/** Evaluates the targets and writes results.json, BENCHMARKS.md and the chart from what we have. */
function finish(): void {
  if (rss.length >= 2 && !rows.some((r) => r.key.startsWith('memory/'))) rows.push(memoryRow(rss));
  const rank = (r: Row): number => ORDER.findIndex((prefix) => r.key.startsWith(prefix));
  rows.sort((a, b) => rank(a) - rank(b));
  const checks = evaluateTargets(rows);
  const results: Results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    mode: quick ? 'quick' : 'full',
    timing,
    logLevel: LOG_LEVEL,
    rows,
    checks,
    notes,
    elapsedS: (performance.now() - startedAt) / 1000,
  };
  if (only !== undefined && !process.env.BENCH_OUT_DIR) {
    for (const c of checks) console.log(`   ${c.met ? 'met' : 'MISSED'}: ${c.row} ${c.target}: ${c.basis}`);
    console.log(
      `\n--only=${only}: ${checks.filter((c) => c.met).length} of ${checks.length} targets met; no report written (set BENCH_OUT_DIR to write one)`,
    );
    return;
  }
  writeReports(results);
  writeChart(
    checks,
    `netcfg make bench${quick ? ' QUICK=1' : ''}, ${results.date.slice(0, 10)}: ${checks.filter((c) => c.met).length} of ${checks.length} targets met`,
  );
  console.log(
    `\n` +
      `${checks.filter((c) => c.met).length} of ${checks.length} targets met; wrote bench/results.json, ` +
      `BENCHMARKS.md, bench/ratios.svg in ${results.elapsedS.toFixed(0)} s`,
  );
  for (const c of checks.filter((x) => !x.met)) console.log(`   missed: ${c.row} ${c.target}: ${c.basis}`);
}

main()
  .then(() => process.exit(failed ? 1 : 0))
  .catch(async (err: unknown) => {
    console.error(`bench: ${(err as Error).stack ?? String(err)}`);
    await stopAll();
    process.exit(1);
  });
