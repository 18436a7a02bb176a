/**
 * Built netcfg replicas sharing one RELAYER_SYNC_FILE, each with GIT_SYNC on its own clone of one
 * `git daemon` remote and a name (NETCFG_REPLICA_ID replica-<i>), and what they say of the relayer
 * lease (GET /api/v1/relayers): for the lease and replica tests.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChildServer } from './child-server.js';
import { startChildren } from './child-servers.js';
import { cloneOf, type GitRemote } from './git-daemon.js';
import type { StandInRelayer } from './stand-in-relayer.js';

export const RELAYER_KEY = 'relayer-key-0123456789abcdef';

export interface LeaseSeen {
  holder: string | null;
  this_replica: string;
  expires_at: string | null;
}

/** Starts `count` replicas; `env` is added to each one's environment. */
export async function startReplicas(
  remote: GitRemote,
  relayer: StandInRelayer,
  count: number,
  env: Record<string, string>,
): Promise<ChildServer[]> {
  const targets = path.join(remote.dir, 'targets.yaml');
  writeFileSync(targets, `relayers:\n  - name: relayer\n    url: ${relayer.url}\n    api_key_env: RELAYER_KEY\n`);
  const envOf = (i: number): Record<string, string> => ({
    CONFIG_DIR: path.join(cloneOf(remote, `replica-${i}`), 'config', 'networks'),
    NETCFG_REPLICA_ID: `replica-${i}`,
    GIT_SYNC: 'true',
    GIT_SYNC_INTERVAL_MS: '3600000',
    RELAYER_SYNC_FILE: targets,
    RELAYER_KEY,
    ...env,
  });
  return startChildren(Array.from({ length: count }, (_, i) => envOf(i)));
}

export async function leaseOf(replica: ChildServer): Promise<LeaseSeen> {
  const res = await fetch(`${replica.url}/api/v1/relayers`);
  return ((await res.json()) as { lease: LeaseSeen }).lease;
}

/**
 * Asks every replica for its view of the lease (every 25 ms: a replica standing by tells no one when
 * it learns the holder) until all name one holder among them; resolves with its index.
 */
export async function agreedHolder(
  replicas: ChildServer[],
  deadlineMs: number,
  ignore: Set<number> = new Set(),
): Promise<number> {
  const deadline = Date.now() + deadlineMs;
  let seen: LeaseSeen[] = [];
  while (Date.now() < deadline) {
    seen = await Promise.all(replicas.map((r, i) => (ignore.has(i) ? null : leaseOf(r)))).then((all) =>
      all.filter((v): v is LeaseSeen => v !== null),
    );
    const holders = new Set(seen.map((s) => s.holder));
    const [holder] = holders;
    if (holders.size === 1 && holder) return Number(holder.replace('replica-', ''));
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the replicas did not agree on a holder within ${deadlineMs} ms: ${JSON.stringify(seen)}`);
}

/** The rpc_urls values the relayer was sent, in the order it applied them (call before the PATCHes). */
export function appliedValues(relayer: StandInRelayer): string[] {
  const values: string[] = [];
  const next = (): void =>
    void relayer.nextPatch().then(({ body }) => {
      values.push(
        String(
          (body as { rpc_urls: Array<{ url: string } | string> }).rpc_urls.map((u) =>
            typeof u === 'string' ? u : u.url,
          )[0],
        ),
      );
      next();
    });
  next();
  return values;
}
