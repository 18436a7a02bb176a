/**
 * Failover: the replica holding the relayer lease is killed (SIGKILL: no goodbye, its lease is left
 * to run out); a change made on the survivor right after reaches the relayer, sent by the survivor
 * once it took the lease. Built processes, GIT_SYNC on clones of one `git daemon` remote, a short
 * lease. How fast (two lease periods and a second) is `make bench`'s row, not a timed test here: this
 * machine's CPUs are shared, and a test bound by time fails for the machine's sake.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import type { ChildServer } from '../../helpers/child-server.js';
import { startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { networkYaml } from '../../helpers/fixtures.js';
import { agreedHolder, RELAYER_KEY, startReplicas } from '../../helpers/lease-replicas.js';
import { startStandInRelayer, type StandInRelayer } from '../../helpers/stand-in-relayer.js';
import { within } from '../../helpers/deadline.js';

const LEASE_MS = 1500;
const OLD = 'https://sepolia-old.example.com';
const NEW = 'https://sepolia-after-failover.example.com';

describe('relayer lease failover (built processes, git daemon, SIGKILL)', function () {
  this.timeout(60_000);
  let remote: GitRemote;
  let relayer: StandInRelayer;
  let replicas: ChildServer[] = [];

  afterEach(async () => {
    await Promise.all(replicas.map((r) => r.stop('SIGKILL')));
    replicas = [];
    await relayer.close();
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  it('the holder killed, a change made on the survivor reaches the relayer, sent by the survivor holding the lease', async () => {
    remote = await startGitRemote({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: [OLD] }) });
    relayer = await startStandInRelayer(RELAYER_KEY, [
      { id: 'evm:sepolia', name: 'sepolia', network_type: 'evm', rpc_urls: [{ url: OLD, weight: 100 }] },
    ]);
    // A long interval: what reaches the relayer after the kill comes from the take-over, not from a timer.
    const env = {
      RELAYER_SYNC_INTERVAL_MS: '600000',
      RELAYER_SYNC_LEASE_MS: String(LEASE_MS),
      RELAYER_SYNC_TIMEOUT_MS: '1000',
    };
    replicas = await startReplicas(remote, relayer, 2, env);
    const h = await agreedHolder(replicas, 20_000);
    const survivor = replicas[1 - h]!;
    const arrived = new Promise<void>((resolve) => {
      const wait = (): void =>
        void relayer.nextPatch().then(({ body }) => (JSON.stringify(body).includes(NEW) ? resolve() : wait()));
      wait();
    });
    await replicas[h]!.stop('SIGKILL');
    const body = JSON.stringify({ rpc_urls: [NEW] });
    const res = await fetch(`${survivor.url}/api/v1/networks/evm:sepolia`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).to.equal(200);
    // A deadline for a hang, far past the two lease periods the bench holds it to.
    await within(arrived, 30_000, 'the change reaching the relayer').catch(async (err: Error) => {
      const state = await fetch(`${survivor.url}/api/v1/relayers`).then(
        (r) => r.text(),
        (e: Error) => e.message,
      );
      const log = survivor.logs.filter((l) => l.msg !== 'request').slice(-15);
      throw new Error(`${err.message}; the survivor's relayers: ${state}; its last log lines: ${JSON.stringify(log)}`);
    });
    // Asked until it says so: a renewal late on a loaded machine lets a 1.5 s lease lapse for a moment (holder null).
    expect(await agreedHolder(replicas, 20_000, new Set([h])), 'the survivor holds the lease').to.equal(1 - h);
    expect(relayer.networks.get('evm:sepolia')?.rpc_urls).to.deep.equal([{ url: NEW, weight: 100 }]);
  });
});
