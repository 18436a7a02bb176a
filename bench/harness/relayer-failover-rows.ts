/**
 * Failover of the relayer lease (issue 50): two built replicas share one config folder (so one file
 * lease, `.locks/relayer-lease.json`, as replicas on a shared volume have it; no GIT_SYNC) and one
 * targets file of three stand-in relayers. The holder is killed with SIGKILL (no goodbye: its lease
 * must run out), a change is made on the survivor right after, and the time from the kill until all
 * three relayers hold it is measured. Target: 2 lease periods + 1 s. The interval is the default
 * minute, so what reaches the relayers comes from the take-over, not from a timer.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startStandInRelayer, type StandInRelayer } from '../../test/helpers/stand-in-relayer.js';
import { TMP_DIR } from './fixtures.js';
import { stopProcess } from './processes.js';
import {
  ADMIN_KEY,
  AUTH,
  allHold,
  RELAYER_KEY,
  relayerAnswers,
  relayerFolder,
  relayersOf,
  untilInSync,
  writeTargets,
} from './relayer-setup.js';
import type { Row } from './results.js';
import { startNetcfg, type Server } from './servers.js';

export const LEASE_MS = 3000;
const RELAYERS = 3;

/** Until both replicas name the same holder, one of them: its index. */
async function agreedHolder(replicas: Server[], deadlineMs: number): Promise<number> {
  const deadline = performance.now() + deadlineMs;
  let seen = '';
  while (performance.now() < deadline) {
    const holders = await Promise.all(replicas.map(async (r) => (await relayersOf(r)).lease?.holder ?? null));
    const index = replicas.findIndex((r) => r.name === holders[0]);
    if (holders.every((h) => h === holders[0]) && index >= 0) return index;
    seen = JSON.stringify(holders);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the replicas did not agree on a holder within ${deadlineMs} ms: ${seen}`);
}

async function oneFailover(
  dir: string,
  targets: string,
  relayers: StandInRelayer[],
  id: string,
  round: number,
  logLevel: string,
): Promise<number> {
  rmSync(path.join(dir, '.locks', 'relayer-lease.json'), { force: true }); // the last round's survivor gave it up, or not
  const env = (name: string): Record<string, string> => ({
    API_KEY: ADMIN_KEY,
    RELAYER_SYNC_FILE: targets,
    RELAYER_SYNC_LEASE_MS: String(LEASE_MS),
    RELAYER_SYNC_TIMEOUT_MS: '2000', // at most 3/4 of the lease (src/config/relayer.ts)
    NETCFG_REPLICA_ID: name,
    BENCH_RELAYER_KEY: RELAYER_KEY,
  });
  const names = ['replica-a', 'replica-b'];
  const replicas = await Promise.all(
    names.map((n) => startNetcfg(n, dir, { logLevel, logName: `netcfg-failover-${round}-${n}`, env: env(n) })),
  );
  try {
    const h = await agreedHolder(replicas, 30_000);
    const holder = replicas[h] as Server;
    const survivor = replicas[1 - h] as Server;
    await untilInSync(holder, RELAYERS, 60_000);
    const url = `https://failover-${round}-${Date.now()}.example.com`;
    const arrived = allHold(relayers, id, url);
    const killed = performance.now();
    holder.child.process.kill('SIGKILL');
    await holder.child.exited;
    const headers = { 'content-type': 'application/json', ...AUTH };
    const res = await fetch(`${survivor.url}/api/v1/networks/${id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ rpc_urls: [url] }),
    });
    if (res.status !== 200) throw new Error(`PATCH on the survivor answered ${res.status}`);
    const deadline = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`round ${round}: the change did not reach the relayers within 30 s`)),
        30_000,
      ).unref(),
    );
    const took = (await Promise.race([arrived, deadline])) - killed;
    const lease = (await relayersOf(survivor)).lease;
    if (lease?.holder !== survivor.name)
      throw new Error(
        `round ${round}: the survivor ${survivor.name} does not say it holds the lease: ${JSON.stringify(lease)}`,
      );
    console.log(
      `relayer failover round ${round}: ${holder.name} killed, ${survivor.name} took over; the change held ` +
        `by ${RELAYERS} relayers ${took.toFixed(0)} ms after the kill`,
    );
    return took;
  } finally {
    for (const r of replicas) await stopProcess(r.child);
  }
}

export async function relayerFailoverRows(rounds: number, logLevel: string): Promise<Row[]> {
  const dir = relayerFolder('relayer-failover-1k');
  const relayers: StandInRelayer[] = [];
  try {
    const seeder = await startNetcfg('netcfg-failover-seed', dir, { logLevel, env: { API_KEY: ADMIN_KEY } });
    const networks = await relayerAnswers(seeder);
    await stopProcess(seeder.child);
    for (let r = 0; r < RELAYERS; r++) relayers.push(await startStandInRelayer(RELAYER_KEY, networks));
    const targets = path.join(TMP_DIR, 'relayer-failover-targets.yaml');
    writeTargets(targets, relayers);
    const id = networks[Math.floor(networks.length / 3)]!.id;
    const times: number[] = [];
    for (let round = 1; round <= rounds; round++)
      times.push(await oneFailover(dir, targets, relayers, id, round, logLevel));
    return [
      {
        key: 'relayer-failover/netcfg',
        group: `Relayer lease failover: the holder of 2 replicas killed (SIGKILL), a change on the survivor -> held by ${RELAYERS} relayers`,
        server: 'netcfg x 2, one config folder (file lease)',
        workload:
          `PATCH ${id} on the survivor right after the kill; RELAYER_SYNC_LEASE_MS=${LEASE_MS}, RELAYER_SYNC_TIMEOUT_MS=2000, ` +
          `1,000 networks, worst of ${rounds} rounds`,
        value: Math.max(...times),
        unit: 'ms from the kill',
        note: `each round, ms from the kill until all ${RELAYERS} relayers held the change: ${times.map((t) => t.toFixed(0)).join(', ')}`,
      },
    ];
  } finally {
    await Promise.all(relayers.map((r) => r.close()));
  }
}
