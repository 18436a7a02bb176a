/**
 * Where does netcfg spend its time? `npx tsx bench/profile.ts <scenario> [seconds]` runs the built
 * server under `node --cpu-prof`, puts one workload on it, stops it (the profile is written as it
 * exits) and prints self and inclusive time by function and module. The profile stays in
 * bench/.tmp/profiles/ for DevTools. Scenarios: get-one, list-10, list-100, list-100-100k (the page
 * from netcfg serving 100,000), patch-1c, patch-10c, startup-10k, startup-100k, and validate-probe (the CLI's
 * `validate --probe` over 1,000 networks x 3 loopback URLs, as the probe row runs it). Needs the fixtures of a
 * `make bench` run (it makes missing ones).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { printSummary, summarise } from './harness/cpu-profile.js';
import {
  ensureFixture,
  fixtureDir,
  PROJECT_DIR,
  scratchCopy,
  sortedIds,
  TMP_DIR,
  warmFiles,
} from './harness/fixtures.js';
import { describe, runOnce } from './harness/load.js';
import { fakeEndpoint, writeFolder } from './harness/probe-rows.js';
import { installCleanup, stopAll, stopProcess, waitIdle } from './harness/processes.js';
import { readPath, readTokens } from './harness/read-rows.js';
import { startNetcfg, waitWatching } from './harness/servers.js';
import { patchOneConnection, patchTenDistinct } from './harness/write-rows.js';

const SCENARIOS = [
  'get-one',
  'list-10',
  'list-100',
  'list-100-100k',
  'patch-1c',
  'patch-10c',
  'startup-10k',
  'startup-100k',
  'validate-probe',
] as const;
type Scenario = (typeof SCENARIOS)[number];

async function main(): Promise<void> {
  const scenario = process.argv[2] as Scenario;
  const seconds = Number(process.argv[3] ?? '5');
  if (!SCENARIOS.includes(scenario))
    throw new Error(`usage: npx tsx bench/profile.ts <${SCENARIOS.join('|')}> [seconds]`);
  installCleanup();
  if (scenario === 'validate-probe') return profileValidateProbe();
  const size = scenario.endsWith('100k') ? 100_000 : scenario === 'startup-10k' ? 10_000 : 1_000;
  ensureFixture(size);
  const dir = scenario.startsWith('patch') ? scratchCopy(fixtureDir(1_000), 'profile-1k') : fixtureDir(size);
  const profiles = path.join(TMP_DIR, 'profiles');
  mkdirSync(profiles, { recursive: true });
  const name = `${scenario}.cpuprofile`;
  rmSync(path.join(profiles, name), { force: true });
  // As in make bench: a start-up finds its files in the page cache (see warmFiles).
  if (scenario.startsWith('startup')) warmFiles(dir);
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${profiles}`, `--cpu-prof-name=${name}`];
  // The read scenarios run as make bench's read rows do: a tokens file, a token on every request.
  const tokens = readTokens(TMP_DIR);
  const reads = ['get-one', 'list-10', 'list-100', 'list-100-100k'].includes(scenario);
  const server = {
    ...(await startNetcfg(`profile-${scenario}`, dir, {
      nodeArgs,
      deadlineMs: 300_000,
      logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
      env: reads ? tokens.env : {},
    })),
    headers: reads ? tokens.headers : {},
  };
  console.log(`${scenario}: ready ${(server.readyAt - server.child.spawnedAt).toFixed(0)} ms after spawn`);
  let settledAt = server.readyAt;
  try {
    if (!scenario.startsWith('startup')) {
      // As make bench does before a row: the watcher's walk and the reconcile after it (a stat
      // per file, seconds at 100,000) are over, so the profile shows the workload alone.
      await waitWatching(server);
      await waitIdle(120_000);
      settledAt = performance.now();
    }
    const ids = sortedIds(1_000);
    const timing = { durationS: seconds, warmupS: 0, runs: 1 };
    if (scenario === 'get-one' || scenario === 'list-10' || scenario === 'list-100' || scenario === 'list-100-100k') {
      const kind = scenario === 'list-100-100k' ? 'list-100' : scenario;
      const result = await runOnce(
        {
          url: server.url + readPath(kind, server, ids[500] as string),
          headers: server.headers,
          connections: 10,
          pid: server.child.pid,
        },
        seconds,
      );
      console.log(describe(scenario, result));
    } else if (scenario === 'patch-1c') {
      await patchOneConnection(
        server,
        'netcfg',
        ids.filter((_, i) => i % 20 === 0),
        timing,
      );
    } else if (scenario === 'patch-10c') {
      await patchTenDistinct(
        server,
        'netcfg',
        ids.filter((_, i) => i % 100 === 50),
        timing,
      );
    }
  } finally {
    await stopProcess(server.child, 20_000);
  }
  const file = path.join(profiles, name);
  if (!existsSync(file)) throw new Error(`no profile written; found: ${readdirSync(profiles).join(', ')}`);
  // For a load, leave out the start-up and the settling (and the first half second of load, while the JIT warms).
  const skipMs = scenario.startsWith('startup') ? 0 : settledAt - server.child.spawnedAt + 500;
  printSummary(
    `${scenario} (${file})${skipMs > 0 ? `, after the first ${skipMs.toFixed(0)} ms` : ''}`,
    summarise(file, 25, skipMs),
  );
}

/** The CLI run as the probe row runs it, under --cpu-prof, against three fake endpoints in this process. */
async function profileValidateProbe(): Promise<void> {
  const endpoints = await Promise.all([0, 1, 2].map(() => fakeEndpoint()));
  const dir = path.join(TMP_DIR, 'profile-probe-1k');
  writeFolder(
    dir,
    endpoints.map((e) => (e.address() as AddressInfo).port),
  );
  const profiles = path.join(TMP_DIR, 'profiles');
  mkdirSync(profiles, { recursive: true });
  const name = 'validate-probe.cpuprofile';
  rmSync(path.join(profiles, name), { force: true });
  const cli = path.join(PROJECT_DIR, 'dist', 'src', 'cli.js');
  const started = performance.now();
  // Asynchronous: the endpoints answer from this process while the CLI runs.
  await new Promise<void>((resolve, reject) => {
    const args = [
      '--cpu-prof',
      `--cpu-prof-dir=${profiles}`,
      `--cpu-prof-name=${name}`,
      cli,
      'validate',
      '--probe',
      dir,
    ];
    execFile(process.execPath, args, { maxBuffer: 1 << 26 }, (err, stdout) => {
      if (err) return reject(err);
      console.log(stdout.trim().split('\n').slice(-1)[0]);
      resolve();
    });
  });
  console.log(`validate-probe: ${((performance.now() - started) / 1000).toFixed(2)} s`);
  for (const e of endpoints) {
    e.closeAllConnections();
    e.close();
  }
  printSummary(`validate-probe (${path.join(profiles, name)})`, summarise(path.join(profiles, name), 25, 0));
}

main().catch(async (err: unknown) => {
  console.error((err as Error).stack ?? String(err));
  await stopAll();
  process.exit(1);
});
