/**
 * Two netcfg replicas (built processes, GIT_SYNC on clones of one remote served by `git daemon` on
 * loopback) share one RELAYER_SYNC_FILE. They elect one holder of the relayer lease (a ref of the
 * remote); only it lists and PATCHes the relayer, the other stands by. A change made on either
 * reaches the relayer once, from the holder, and the relayer is never set back to an older value:
 * the one that does not hold the lease sends nothing, and the holder's pass lists, then pulls.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import type { ChildServer } from '../../helpers/child-server.js';
import { startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { networkYaml } from '../../helpers/fixtures.js';
import { agreedHolder, appliedValues, leaseOf, RELAYER_KEY, startReplicas } from '../../helpers/lease-replicas.js';
import { startStandInRelayer, type StandInRelayer } from '../../helpers/stand-in-relayer.js';

const OLD = 'https://sepolia-old.example.com';
const NEW = 'https://sepolia-new.example.com';
const NEWER = 'https://sepolia-newer.example.com';

const patch = (replica: ChildServer, url: string): Promise<Response> => {
  const body = JSON.stringify({ rpc_urls: [url] });
  return fetch(`${replica.url}/api/v1/networks/evm:sepolia`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body,
  });
};

async function relayersOf(replica: ChildServer): Promise<Array<{ patches_sent: number; last_pass_at: string | null }>> {
  return (
    (await (await fetch(`${replica.url}/api/v1/relayers`)).json()) as {
      data: Array<{ patches_sent: number; last_pass_at: string | null }>;
    }
  ).data;
}

describe('relayer sync with two GIT_SYNC replicas on one targets file (built processes, git daemon)', function () {
  this.timeout(60_000);
  let remote: GitRemote;
  let relayer: StandInRelayer;
  let replicas: ChildServer[] = [];

  afterEach(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    replicas = [];
    await relayer.close();
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  it('one replica speaks: changes made on either reach the relayer from the holder alone, newest last, never set back', async () => {
    remote = await startGitRemote({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: [OLD] }) });
    relayer = await startStandInRelayer(RELAYER_KEY, [
      { id: 'evm:sepolia', name: 'sepolia', network_type: 'evm', rpc_urls: [{ url: OLD, weight: 100 }] },
    ]);
    const applied = appliedValues(relayer);
    replicas = await startReplicas(remote, relayer, 2, {
      RELAYER_SYNC_INTERVAL_MS: '200',
      RELAYER_SYNC_LEASE_MS: '3000',
      RELAYER_SYNC_TIMEOUT_MS: '2000',
    });
    const h = await agreedHolder(replicas, 20_000);
    const [holder, standby] = [replicas[h]!, replicas[1 - h]!];
    expect(await leaseOf(standby)).to.include({ holder: `replica-${h}`, this_replica: `replica-${1 - h}` });

    // The holder's pass is held in its list while a change made on it reaches the relayer.
    let release = (): void => undefined;
    relayer.listGate = new Promise((resolve) => (release = resolve));
    const held = relayer.requests.filter((q) => q.method === 'GET').length;
    await relayer.untilRequests(held + 1, 'GET');
    const sent = relayer.nextPatch();
    expect((await patch(holder, NEW)).status).to.equal(200);
    expect((await sent).body).to.deep.equal({ rpc_urls: [{ url: NEW, weight: 100 }] });
    relayer.listGate = null;
    release();

    // A change made on the replica standing by: pushed to the remote, sent by the holder after its pull.
    const reached = relayer.nextPatch();
    expect((await patch(standby, NEWER)).status).to.equal(200);
    expect((await reached).body).to.deep.equal({ rpc_urls: [{ url: NEWER, weight: 100 }] });
    const lists = relayer.requests.filter((q) => q.method === 'GET').length;
    await relayer.untilRequests(lists + 10, 'GET'); // ten more passes: each would have set an older value back

    // A value may be sent twice (the pull's change and the pass's drift), never after a newer one.
    expect(
      applied.filter((v, i) => v !== applied[i - 1]),
      'what the relayer applied, in order',
    ).to.deep.equal([NEW, NEWER]);
    expect(relayer.networks.get('evm:sepolia')?.rpc_urls).to.deep.equal([{ url: NEWER, weight: 100 }]);
    const [spoke, stoodBy] = [(await relayersOf(holder))[0]!, (await relayersOf(standby))[0]!];
    expect(spoke.patches_sent, 'the holder sent every PATCH').to.equal(
      relayer.requests.filter((q) => q.method === 'PATCH').length,
    );
    expect(stoodBy, 'the replica standing by neither listed nor sent').to.include({
      patches_sent: 0,
      last_pass_at: null,
    });
  });
});
