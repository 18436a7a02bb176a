/**
 * What the relayer sync's phases share: 1,000 networks of the relayer's families, stand-in relayers
 * seeded with them as the relayer itself would answer them (src/relayer/format/relayer-form.ts, so a
 * pass that compares every field finds them equal), the targets file, and netcfg's admin view.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { relayerFormOf } from '../../src/relayer/format/relayer-form.js';
import type { StandInNetwork, StandInRelayer } from '../../test/helpers/stand-in-relayer.js';
import { TMP_DIR } from './fixtures.js';
import { network } from './network-data.js';
import type { Server } from './servers.js';

export const RELAYER_KEY = 'bench-relayer-key-0123456789abcdef';
/** netcfg's API_KEY: the admin token GET /api/v1/relayers and POST .../sync need. */
export const ADMIN_KEY = 'bench-admin-key-0123456789abcdef0123456789';
export const AUTH = { authorization: `Bearer ${ADMIN_KEY}` };

export interface LeaseSeen {
  holder: string | null;
  this_replica: string;
  expires_at: string | null;
}

/** 1,000 networks of the families a relayer has (evm, solana, stellar), from the fixtures' generator. */
export function relayerFolder(name: string): string {
  const dir = path.join(TMP_DIR, name);
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

/** Every network netcfg serves, as the relayer would answer it once it loaded netcfg's export. */
export async function relayerAnswers(server: Server): Promise<StandInNetwork[]> {
  const all: StandInNetwork[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${server.url}/api/v1/networks?page=${page}&per_page=100`, { headers: AUTH });
    const body = (await res.json()) as { data: Array<Record<string, unknown>> };
    for (const view of body.data) {
      const form = relayerFormOf(view);
      if (form)
        all.push({
          id: String(view.id),
          name: view.name,
          network_type: view.network_type,
          ...form,
        } as unknown as StandInNetwork);
    }
    if (body.data.length < 100) return all;
  }
}

export function writeTargets(file: string, relayers: StandInRelayer[]): void {
  const entries = relayers.map((r, i) => `  - name: r${i}\n    url: ${r.url}\n    api_key_env: BENCH_RELAYER_KEY\n`);
  writeFileSync(file, `relayers:\n${entries.join('')}`);
}

export async function relayersOf(
  server: Server,
): Promise<{ data: Array<{ name: string; state: string }>; lease?: LeaseSeen }> {
  const res = await fetch(`${server.url}/api/v1/relayers`, { headers: AUTH });
  if (res.status !== 200) throw new Error(`${server.name}: GET /api/v1/relayers answered ${res.status}`);
  return (await res.json()) as { data: Array<{ name: string; state: string }>; lease?: LeaseSeen };
}

/** Until every one of `count` relayers is in_sync, as this replica (the holder) says. */
export async function untilInSync(server: Server, count: number, deadlineMs: number): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  let last = '';
  while (performance.now() < deadline) {
    const body = await relayersOf(server);
    if (body.data.length === count && body.data.every((t) => t.state === 'in_sync')) return;
    last = body.data.map((t) => `${t.name} ${t.state}`).join(', ');
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${server.name}: the relayers were not in sync within ${deadlineMs} ms (${last})`);
}

/** Resolves when every relayer has been sent `url` as its first rpc URL of `id`: performance.now() of the last. */
export function allHold(relayers: StandInRelayer[], id: string, url: string): Promise<number> {
  return Promise.all(
    relayers.map(
      (r) =>
        new Promise<number>((resolve) => {
          const wait = (): void =>
            void r
              .nextPatch()
              .then(({ id: got }) =>
                got === id && r.networks.get(id)?.rpc_urls[0]?.url === url ? resolve(performance.now()) : wait(),
              );
          wait();
        }),
    ),
  ).then((times) => Math.max(...times));
}
