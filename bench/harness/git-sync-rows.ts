/**
 * The GIT_SYNC rows: two netcfg replicas, each on its own clone of a bare repository that
 * `git daemon` serves on loopback (a 200 means the remote has the change). PATCH-to-pushed rate on
 * one connection, and with ten writers over the two replicas (group commit: writers that arrive
 * during a push share the next one); and how long after a 200 on replica A replica B serves the
 * change, when the git host's webhook reaches B.
 */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TMP_DIR } from './fixtures.js';
import { Poller, percentileOf } from './http-poll.js';
import { describe, runOnce, type LoadSpec, type RunResult, type Timing } from './load.js';
import { network } from './network-data.js';
import { freePort, startProcess, stopProcess, type Child } from './processes.js';
import type { Row } from './results.js';
import { startNetcfg, type Server } from './servers.js';
import { alternatingClients, patchRow } from './write-rows.js';
import { gitDaemonArgs } from '../../test/helpers/git-daemon.js';

const NETWORKS = 10;
const SECRET = 'bench webhook secret';
const VISIBLE_SAMPLES = 40;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
    encoding: 'utf8',
  });
}

interface Remote {
  url: string;
  daemon: Child;
  replicas: [Server, Server];
}

/** A bare repository of NETWORKS networks, its git daemon, and two netcfg replicas on clones of it. */
async function startRemote(dir: string): Promise<Remote> {
  rmSync(dir, { recursive: true, force: true });
  const seed = path.join(dir, 'seed');
  const ids: string[] = [];
  for (let n = 0; n < NETWORKS; n++) {
    const net = network(n);
    mkdirSync(path.join(seed, 'config', 'networks', net.family), { recursive: true });
    writeFileSync(path.join(seed, 'config', 'networks', net.rel), net.yaml);
    ids.push(net.id);
  }
  git(seed, 'init', '-q', '-b', 'main');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-qm', 'seed');
  const base = path.join(dir, 'served');
  mkdirSync(base);
  git(dir, 'clone', '-q', '--bare', seed, path.join(base, 'networks.git'));
  const port = await freePort();
  const daemon = startProcess('git-daemon', 'git', gitDaemonArgs(base, port));
  const url = `git://127.0.0.1:${port}/networks.git`;
  const deadline = performance.now() + 10_000;
  for (;;) {
    try {
      git(dir, 'ls-remote', url);
      break;
    } catch (err) {
      if (performance.now() > deadline)
        throw new Error(`git daemon did not answer within 10 s: ${daemon.stderr()}`, { cause: err });
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const replica = (name: string): Promise<Server> => {
    const clone = path.join(dir, name);
    git(dir, 'clone', '-q', url, clone);
    return startNetcfg(`netcfg-git-${name}`, path.join(clone, 'config', 'networks'), {
      env: { GIT_SYNC: 'true', GIT_WEBHOOK_SECRET: SECRET },
    });
  };
  return { url, daemon, replicas: [await replica('a'), await replica('b')] };
}

function networkIds(): string[] {
  return Array.from({ length: NETWORKS }, (_, n) => network(n).id);
}

/** Ten writers, five on each replica, each writing its own network, their runs side by side. */
async function tenWritersRow(a: Server, b: Server, timing: Timing): Promise<Row> {
  const ids = networkIds();
  const spec = (server: Server, offset: number): LoadSpec => ({
    url: server.url,
    connections: 5,
    setupClient: alternatingClients(server, (c) => [ids[offset + (c % 5)] as string]),
    pid: server.child.pid,
  });
  const specs = [spec(a, 0), spec(b, 5)];
  if (timing.warmupS > 0) await Promise.all(specs.map((s) => runOnce(s, timing.warmupS)));
  const runs: RunResult[][] = [];
  for (let i = 0; i < timing.runs; i++) runs.push(await Promise.all(specs.map((s) => runOnce(s, timing.durationS))));
  const total = (pair: RunResult[]): number =>
    pair.reduce((sum, r) => sum + r.reqPerSec * ((r.statusCodes['200'] ?? 0) / Math.max(1, r.total)), 0);
  const best = runs.reduce((x, y) => (total(y) > total(x) ? y : x));
  const [ra, rb] = best as [RunResult, RunResult];
  console.log(describe('git sync, 10 writers over 2 replicas | A', ra));
  console.log(describe('git sync, 10 writers over 2 replicas | B', rb));
  const other = (r: RunResult): string =>
    Object.entries(r.statusCodes)
      .filter(([c]) => c !== '200')
      .map(([c, n]) => `${n} x ${c}`)
      .join(', ') || 'none';
  return {
    key: 'git-push-10w/netcfg',
    group: 'GIT_SYNC: PATCH pushed, 10 writers over 2 replicas',
    server: 'netcfg (2 replicas, git daemon)',
    workload: 'PATCH, 5 connections on each replica, each its own network; 200s per second, both replicas together',
    connections: 10,
    reqPerSec: total(best),
    p50: Math.max(ra.p50, rb.p50),
    p99: Math.max(ra.p99, rb.p99),
    note:
      `A ${ra.reqPerSec.toFixed(0)} req/s (p50 ${ra.p50} ms, p99 ${ra.p99} ms), B ` +
      `${rb.reqPerSec.toFixed(0)} req/s (p50 ${rb.p50} ms, p99 ${rb.p99} ms); answers other than 200: A ` +
      `${other(ra)}, B ${other(rb)}`,
    runs: runs.map((pair) => ({
      reqPerSec: total(pair),
      p50: Math.max(...pair.map((r) => r.p50)),
      p99: Math.max(...pair.map((r) => r.p99)),
    })),
  };
}

/** PATCH on A, then the webhook to B, then GETs on B until it serves the change: ms from A's 200. */
async function visibleRow(a: Server, b: Server): Promise<Row> {
  const id = networkIds()[0] as string;
  const poller = new Poller(b.url);
  const delays: number[] = [];
  try {
    for (let i = 0; i < VISIBLE_SAMPLES; i++) {
      const url = `https://visible-${i}.example.com/rpc`;
      const res = await fetch(`${a.url}/api/v1/networks/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rpc_urls: [url] }),
      });
      if (res.status !== 200) throw new Error(`PATCH on A: ${res.status} ${await res.text()}`);
      const answered = performance.now();
      const body = JSON.stringify({ ref: 'refs/heads/main' });
      const hook = await fetch(`${b.url}/api/v1/webhooks/git`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
        },
        body,
      });
      if (hook.status !== 202) throw new Error(`webhook on B: ${hook.status} ${await hook.text()}`);
      const seen = await poller.until(`/api/v1/networks/${id}`, (text) => text.includes(url), 10_000);
      if (seen === null) throw new Error(`B did not serve ${url} within 10 s of the webhook`);
      delays.push(performance.now() - answered);
    }
  } finally {
    poller.close();
  }
  const p50 = percentileOf(delays, 0.5);
  const p99 = percentileOf(delays, 0.99);
  console.log(
    `git sync, PATCH on A -> served by B after the webhook: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (${VISIBLE_SAMPLES} samples)`,
  );
  return {
    key: 'git-visible/netcfg',
    group: 'GIT_SYNC: PATCH on A served by B (webhook)',
    server: 'netcfg (2 replicas, git daemon)',
    workload: `PATCH on A (200), the GitHub-signed webhook to B, GETs on B until it serves the change; ${VISIBLE_SAMPLES} in turn`,
    p50,
    p99,
    value: p50,
    unit: 'ms',
  };
}

export async function gitSyncRows(timing: Timing): Promise<Row[]> {
  const remote = await startRemote(path.join(TMP_DIR, 'git-sync'));
  const [a, b] = remote.replicas;
  try {
    const rows = [
      await patchRow(
        'git-push-1c/netcfg',
        'GIT_SYNC: PATCH pushed, 1 connection',
        'netcfg (2 replicas, git daemon)',
        a,
        1,
        () => networkIds(),
        timing,
        'PATCH on replica A, 10 networks in turn; each 200 after its push',
      ),
    ];
    rows.push(await tenWritersRow(a, b, timing));
    rows.push(await visibleRow(a, b));
    return rows;
  } finally {
    await Promise.all([stopProcess(a.child), stopProcess(b.child)]);
    await stopProcess(remote.daemon);
  }
}
