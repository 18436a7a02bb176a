/**
 * The relayer sync's rows (issue 43), against three stand-in relayers on loopback (the tests'
 * test/helpers/stand-in-relayer.ts, which behaves as the relayer's network routes do):
 * - a PATCH on netcfg until all three relayers hold it (p50, p99);
 * - a full pass over 1,000 networks x 3 relayers with 10 drifted on each: the requests sent
 *   (target: the list pages plus exactly 10 PATCHes per relayer) and how long it took;
 * - GET one network with the sync passing every second, against the same server without it.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandInRelayer, type StandInNetwork, type StandInRelayer } from '../../test/helpers/stand-in-relayer.js';
import { TMP_DIR } from './fixtures.js';
import { network } from './network-data.js';
import { percentileOf } from './http-poll.js';
import { describe, measureInterleaved, type Timing } from './load.js';
import { stopProcess } from './processes.js';
import { loadRow, type Row } from './results.js';
import { startNetcfg, type Server } from './servers.js';

const KEY = 'bench-relayer-key-0123456789abcdef';
const RELAYERS = 3;
const DRIFTED = 10;
const PATCHES = 100;

async function servedNetworks(server: Server): Promise<StandInNetwork[]> {
  const all: StandInNetwork[] = [];
  for (let page = 1; ; page++) {
    const body = (await (await fetch(`${server.url}/api/v1/networks?page=${page}&per_page=100`)).json()) as { data: StandInNetwork[] };
    all.push(...body.data);
    if (body.data.length < 100) return all;
  }
}

async function untilInSync(server: Server, deadlineMs: number): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  while (performance.now() < deadline) {
    const body = (await (await fetch(`${server.url}/api/v1/relayers`)).json()) as { data: Array<{ state: string }> };
    if (body.data.length === RELAYERS && body.data.every((t) => t.state === 'in_sync')) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the relayers were not in sync within ${deadlineMs} ms`);
}

/** 1,000 networks of the families a relayer has (evm, solana, stellar), from the fixtures' generator. */
function relayerFolder(): string {
  const dir = path.join(TMP_DIR, 'relayer-1k');
  rmSync(dir, { recursive: true, force: true });
  let written = 0;
  for (let n = 0; written < 1000; n++) {
    const net = network(n);
    if (!['evm', 'solana', 'stellar'].includes(net.family)) continue;
    mkdirSync(path.join(dir, net.family), { recursive: true });
    writeFileSync(path.join(dir, net.rel), net.yaml);
    written++;
  }
  return dir;
}

export async function relayerRows(timing: Timing, logLevel: string): Promise<Row[]> {
  const dir = relayerFolder();
  const plain = await startNetcfg('netcfg-no-sync', dir, { logLevel });
  const relayers: StandInRelayer[] = [];
  const servers: Server[] = [plain];
  try {
    const networks = await servedNetworks(plain);
    const drifted = new Set(networks.filter((_, i) => i % Math.floor(networks.length / DRIFTED) === 3).slice(0, DRIFTED).map((n) => n.id));
    for (let r = 0; r < RELAYERS; r++) {
      const seeded = networks.map((n) => (drifted.has(n.id) ? { ...n, rpc_urls: [{ url: 'https://drifted.example.com', weight: 100 }] } : n));
      relayers.push(await startStandInRelayer(KEY, seeded));
    }
    const targets = path.join(TMP_DIR, 'relayer-targets.yaml');
    writeFileSync(targets, `relayers:\n${relayers.map((r, i) => `  - name: r${i}\n    url: ${r.url}\n    api_key_env: BENCH_RELAYER_KEY\n`).join('')}`);
    const started = performance.now();
    const syncing = await startNetcfg('netcfg-relayer-sync', dir, { logLevel, env: { RELAYER_SYNC_FILE: targets, RELAYER_SYNC_INTERVAL_MS: '1000', BENCH_RELAYER_KEY: KEY } });
    servers.push(syncing);
    await untilInSync(syncing, 60_000);
    // The first pass: every request until each relayer's 10th PATCH (a later pass only lists).
    const passes = relayers.map((r) => {
      const patches = r.requests.filter((q) => q.method === 'PATCH');
      const end = patches[DRIFTED - 1]?.at ?? Infinity;
      const first = r.requests.filter((q) => q.at <= end);
      return { gets: first.filter((q) => q.method === 'GET').length, patches: patches.length, ms: end - (first[0]?.at ?? end) };
    });
    const pages = Math.ceil(networks.length / 100);
    const problems = passes.filter((p) => p.gets !== pages || p.patches !== DRIFTED).length;
    console.log(`relayer pass: ${JSON.stringify(passes)} (${pages} pages, ${DRIFTED} drifted each; ${((performance.now() - started) / 1000).toFixed(1)} s from start to in sync)`);
    const rows: Row[] = [{
      key: 'relayer-pass/netcfg',
      group: `Relayer sync: first pass over ${networks.length} networks x ${RELAYERS} relayers, ${DRIFTED} drifted on each`,
      server: 'netcfg (stand-in relayers on loopback)',
      workload: `GET /api/v1/networks every page (100 a page), then a PATCH per drifted network, per relayer`,
      value: problems,
      unit: 'relayers off target',
      note: passes.map((p, i) => `r${i}: ${p.gets} GETs + ${p.patches} PATCHes in ${p.ms.toFixed(0)} ms`).join('; '),
    }];
    const ids = networks.map((n) => n.id);
    const delays: number[] = [];
    for (let k = 0; k < PATCHES; k++) {
      const id = ids[(k * 7) % ids.length] as string;
      const heard = Promise.all(relayers.map((r) => r.nextPatch()));
      const t0 = performance.now();
      const res = await fetch(`${syncing.url}/api/v1/networks/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rpc_urls: [`https://bench-${k}.example.com`] }) });
      await res.arrayBuffer();
      await heard;
      delays.push(performance.now() - t0);
    }
    rows.push({ key: 'relayer-visible/netcfg', group: `PATCH on netcfg -> held by ${RELAYERS} relayers`, server: 'netcfg (stand-in relayers on loopback)', workload: `${PATCHES} PATCHes one after another, each until every relayer took it`, p50: percentileOf(delays, 0.5), p99: percentileOf(delays, 0.99), value: percentileOf(delays, 0.5), unit: 'ms' });
    const id = ids[Math.floor(ids.length / 2)] as string;
    const [without, withSync] = await measureInterleaved([plain, syncing].map((s) => ({ url: `${s.url}/api/v1/networks/${id}`, connections: 10, pid: s.child.pid })), timing);
    const group = `GET one network, relayer sync of 1,000 networks x ${RELAYERS} relayers passing every second`;
    console.log(describe(`${group} | off`, without!));
    console.log(describe(`${group} | on`, withSync!));
    const workload = `GET /api/v1/networks/${id}; RELAYER_SYNC_INTERVAL_MS=1000`;
    rows.push(loadRow('relayer-get/netcfg-off', group, 'netcfg, no sync', workload, 10, without!), loadRow('relayer-get/netcfg', group, 'netcfg, sync on', workload, 10, withSync!));
    return rows;
  } finally {
    for (const s of servers) await stopProcess(s.child);
    await Promise.all(relayers.map((r) => r.close()));
  }
}
