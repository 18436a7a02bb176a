/**
 * The relayer sync's rows (issues 43 and 50), against three stand-in relayers on loopback (the tests'
 * test/helpers/stand-in-relayer.ts, which behaves as the relayer's network routes do), seeded as the
 * relayer would answer netcfg's networks, so every field a pass compares is equal but the drifted ones:
 * - a full first pass over 1,000 networks x 3 relayers with 10 drifted on each: the requests sent
 *   (target: the list pages plus exactly 10 PATCHes per relayer);
 * - a PATCH on netcfg until all three relayers hold it (p50, p99), this replica holding the lease;
 * - CPU per pass: passes run by `POST /api/v1/relayers/{name}/sync` (admin), the server's CPU time
 *   divided by the passes the relayers saw (their list walks, the timer's passes included);
 * - GET one network with the sync passing every second, against the same server without it.
 * Both servers run with API_KEY (the admin token the relayer routes need), so their reads cost the same.
 */
import path from 'node:path';
import { startStandInRelayer, type StandInRelayer } from '../../test/helpers/stand-in-relayer.js';
import { TMP_DIR } from './fixtures.js';
import { percentileOf } from './http-poll.js';
import { describe, measureInterleaved, type Timing } from './load.js';
import { cpuMs, stopProcess } from './processes.js';
import {
  ADMIN_KEY,
  allHold,
  AUTH,
  RELAYER_KEY,
  relayerAnswers,
  relayerFolder,
  relayersOf,
  untilInSync,
  writeTargets,
} from './relayer-setup.js';
import { loadRow, type Row } from './results.js';
import { startNetcfg, type Server } from './servers.js';

const RELAYERS = 3;
const DRIFTED = 10;
const PATCHES = 100;
const REPLICA = 'bench-holder';

/** List walks the relayers took (one GET per page). */
function listGets(relayers: StandInRelayer[]): number {
  return relayers.reduce(
    (n, r) => n + r.requests.filter((q) => q.method === 'GET' && q.path.startsWith('/api/v1/networks?')).length,
    0,
  );
}

const patchCount = (relayers: StandInRelayer[]): number =>
  relayers.reduce((n, r) => n + r.requests.filter((q) => q.method === 'PATCH').length, 0);

/** Until no relayer took a PATCH for `quietMs`: the repeats of the last changes (see the row's note) are over. Returns the repeats. */
async function untilQuiet(relayers: StandInRelayer[], quietMs: number, deadlineMs: number): Promise<number> {
  const from = patchCount(relayers);
  const deadline = performance.now() + deadlineMs;
  let seen = from;
  let since = performance.now();
  while (performance.now() - since < quietMs) {
    if (performance.now() > deadline)
      throw new Error(`the relayers still took PATCHes ${deadlineMs} ms after the last change`);
    await new Promise((r) => setTimeout(r, 50));
    const now = patchCount(relayers);
    if (now !== seen) [seen, since] = [now, performance.now()];
  }
  return seen - from;
}

/** CPU per pass: `rounds` rounds of one POST .../sync per relayer (the three at once), on the server's CPU clock. */
async function cpuPerPass(
  syncing: Server,
  plain: Server,
  relayers: StandInRelayer[],
  pages: number,
  rounds: number,
): Promise<Row> {
  const gets = listGets(relayers);
  const patches = patchCount(relayers);
  const cpu = cpuMs(syncing.child.pid);
  const idle = cpuMs(plain.child.pid);
  const t0 = performance.now();
  const compared = new Set<number>();
  const states = new Map<string, number>();
  for (let k = 0; k < rounds; k++) {
    await Promise.all(
      relayers.map(async (_, i) => {
        const res = await fetch(`${syncing.url}/api/v1/relayers/r${i}/sync`, { method: 'POST', headers: AUTH });
        const body = (await res.json()) as { data?: { state: string; last_pass?: { networks_compared: number } } };
        if (res.status !== 200 || !body.data)
          throw new Error(
            `POST /api/v1/relayers/r${i}/sync answered ${res.status} ${JSON.stringify(body).slice(0, 300)}`,
          );
        compared.add(body.data.last_pass?.networks_compared ?? -1);
        states.set(body.data.state, (states.get(body.data.state) ?? 0) + 1);
      }),
    );
  }
  const wallS = (performance.now() - t0) / 1000;
  const usedMs = cpuMs(syncing.child.pid) - cpu;
  const passes = (listGets(relayers) - gets) / pages;
  const perPass = usedMs / passes;
  const note =
    `${passes.toFixed(1)} passes (${rounds * RELAYERS} asked by POST, ${(passes - rounds * RELAYERS).toFixed(1)} by the 1 s timer) in ${wallS.toFixed(1)} s, ` +
    `${usedMs} ms of server CPU (clock ticks of 10 ms); networks compared per pass ${[...compared].join('/')}; ` +
    `PATCHes sent meanwhile ${patchCount(relayers) - patches}; ` +
    `states answered ${[...states].map(([k, v]) => `${k} ${v}`).join(', ')}; ` +
    `the same server without sync used ${cpuMs(plain.child.pid) - idle} ms over that time`;
  console.log(`relayer pass CPU: ${perPass.toFixed(1)} ms per pass per relayer; ${note}`);
  return {
    key: 'relayer-cpu/netcfg',
    group: `Relayer sync: CPU per full pass, 1,000 networks, every field compared (${RELAYERS} relayers in sync)`,
    server: 'netcfg (lease held)',
    workload: `POST /api/v1/relayers/{name}/sync (admin) to each relayer at once, ${rounds} rounds; server CPU / passes the relayers saw`,
    value: perPass,
    unit: 'ms CPU per pass per relayer',
    note,
  };
}

export async function relayerRows(timing: Timing, logLevel: string): Promise<Row[]> {
  const dir = relayerFolder('relayer-1k');
  const plain = await startNetcfg('netcfg-no-sync', dir, { logLevel, env: { API_KEY: ADMIN_KEY } });
  const relayers: StandInRelayer[] = [];
  const servers: Server[] = [plain];
  try {
    const networks = await relayerAnswers(plain);
    const drifted = new Set(
      networks
        .filter((_, i) => i % Math.floor(networks.length / DRIFTED) === 3)
        .slice(0, DRIFTED)
        .map((n) => n.id),
    );
    for (let r = 0; r < RELAYERS; r++) {
      const seeded = networks.map((n) =>
        drifted.has(n.id) ? { ...n, rpc_urls: [{ url: 'https://drifted.example.com', weight: 100 }] } : n,
      );
      relayers.push(await startStandInRelayer(RELAYER_KEY, seeded));
    }
    const targets = path.join(TMP_DIR, 'relayer-targets.yaml');
    writeTargets(targets, relayers);
    const started = performance.now();
    const env = {
      API_KEY: ADMIN_KEY,
      RELAYER_SYNC_FILE: targets,
      RELAYER_SYNC_INTERVAL_MS: '1000',
      NETCFG_REPLICA_ID: REPLICA,
      BENCH_RELAYER_KEY: RELAYER_KEY,
    };
    const syncing = await startNetcfg('netcfg-relayer-sync', dir, { logLevel, env });
    servers.push(syncing);
    await untilInSync(syncing, RELAYERS, 60_000);
    const { lease } = await relayersOf(syncing);
    if (lease?.holder !== REPLICA || lease.this_replica !== REPLICA)
      throw new Error(`the lease is not held by ${REPLICA}: ${JSON.stringify(lease)}`);
    // The first pass: every request until each relayer's 10th PATCH (a later pass only lists).
    const passes = relayers.map((r) => {
      const patches = r.requests.filter((q) => q.method === 'PATCH');
      const end = patches[DRIFTED - 1]?.at ?? Infinity;
      const first = r.requests.filter((q) => q.at <= end);
      return {
        gets: first.filter((q) => q.method === 'GET').length,
        patches: patches.length,
        ms: end - (first[0]?.at ?? end),
      };
    });
    const pages = Math.ceil(networks.length / 100);
    const problems = passes.filter((p) => p.gets !== pages || p.patches !== DRIFTED).length;
    console.log(
      `relayer pass: ${JSON.stringify(passes)} (${pages} pages, ${DRIFTED} drifted each; ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s from start to in sync)`,
    );
    const rows: Row[] = [
      {
        key: 'relayer-pass/netcfg',
        group: `Relayer sync: first pass over ${networks.length} networks x ${RELAYERS} relayers, every field compared, ${DRIFTED} drifted on each`,
        server: 'netcfg (stand-in relayers on loopback)',
        workload: `GET /api/v1/networks every page (100 a page), then a PATCH per drifted network, per relayer`,
        value: problems,
        unit: 'relayers off target',
        note: passes.map((p, i) => `r${i}: ${p.gets} GETs + ${p.patches} PATCHes in ${p.ms.toFixed(0)} ms`).join('; '),
      },
    ];
    const ids = networks.map((n) => n.id);
    const delays: number[] = [];
    for (let k = 0; k < PATCHES; k++) {
      const id = ids[(k * 7) % ids.length] as string;
      const url = `https://bench-${k}.example.com`;
      const heard = allHold(relayers, id, url);
      const t0 = performance.now();
      const headers = { 'content-type': 'application/json', ...AUTH };
      const res = await fetch(`${syncing.url}/api/v1/networks/${id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ rpc_urls: [url] }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`PATCH ${id} answered ${res.status}`);
      await heard;
      delays.push(performance.now() - t0);
    }
    const after = (await relayersOf(syncing)).lease;
    const atEnd = relayers.map((r) => r.requests.filter((q) => q.method === 'PATCH').length);
    await untilInSync(syncing, RELAYERS, 30_000);
    const served = new Map((await relayerAnswers(syncing)).map((n) => [n.id, JSON.stringify(n.rpc_urls)]));
    const behind = relayers.map(
      (r) => [...r.networks.values()].filter((n) => served.get(n.id) !== JSON.stringify(n.rpc_urls)).length,
    );
    // Every change is sent, and some again later with the same value: waited out, so the passes below measure passes alone.
    await untilQuiet(relayers, 1000, 60_000);
    const patchesOf = (r: StandInRelayer): StandInRelayer['requests'] => r.requests.filter((q) => q.method === 'PATCH');
    const repeats = relayers.map(
      (r, i) =>
        `${patchesOf(r).length} (${new Set(patchesOf(r).map((q) => q.path + q.body)).size} distinct, ${atEnd[i]} by the last change's arrival)`,
    );
    const note =
      `lease holder before and after the PATCHes: ${REPLICA}, ${after?.holder ?? 'none'}; PATCHes each relayer took in all, ${DRIFTED} drift fixes included: ` +
      `${repeats.join(', ')}; networks whose rpc_urls differ from netcfg's once in sync: ${behind.join(', ')}`;
    console.log(`relayer PATCHes: ${note}`);
    rows.push({
      key: 'relayer-visible/netcfg',
      group: `PATCH on netcfg -> held by ${RELAYERS} relayers, this replica holding the relayer lease`,
      server: 'netcfg (lease held, file lease in .locks/)',
      workload: `${PATCHES} PATCHes one after another, each until every relayer took it; RELAYER_SYNC_LEASE_MS=15000 (default), NETCFG_REPLICA_ID=${REPLICA}`,
      p50: percentileOf(delays, 0.5),
      p99: percentileOf(delays, 0.99),
      value: percentileOf(delays, 0.5),
      unit: 'ms',
      note,
    });
    rows.push(await cpuPerPass(syncing, plain, relayers, pages, timing.durationS >= 10 ? 20 : 5));
    const id = ids[Math.floor(ids.length / 2)] as string;
    const specs = [plain, syncing].map((s) => ({
      url: `${s.url}/api/v1/networks/${id}`,
      connections: 10,
      pid: s.child.pid,
      headers: AUTH,
    }));
    const walks = listGets(relayers);
    const t0 = performance.now();
    const [without, withSync] = await measureInterleaved(specs, timing);
    const during =
      `${((listGets(relayers) - walks) / pages).toFixed(0)} passes of the sync server over the ` +
      `${((performance.now() - t0) / 1000).toFixed(0)} s of both servers' runs`;
    const group = `GET one network, relayer sync of 1,000 networks x ${RELAYERS} relayers (every field) passing every second`;
    console.log(describe(`${group} | off`, without!));
    console.log(describe(`${group} | on`, withSync!));
    const workload = `GET /api/v1/networks/${id} with the admin token; RELAYER_SYNC_INTERVAL_MS=1000, lease held`;
    rows.push(
      loadRow('relayer-get/netcfg-off', group, 'netcfg, no sync', workload, 10, without!),
      loadRow('relayer-get/netcfg', group, 'netcfg, sync on', workload, 10, withSync!, during),
    );
    return rows;
  } finally {
    for (const s of servers) await stopProcess(s.child);
    await Promise.all(relayers.map((r) => r.close()));
  }
}
