/**
 * Two netcfg replicas (built processes, GIT_SYNC on clones of one remote served by `git daemon` on
 * loopback) share one RELAYER_SYNC_FILE. A PATCH on A is sent to the relayer by A; B has not pulled
 * it (its own pull interval is an hour), yet its passes never set the relayer back to the older
 * value: each pass lists the relayer, then pulls, so the value it compares was sent after a commit
 * its pull brings. The stand-in holds both replicas' lists while A's PATCH lands: a pass that
 * pulled before listing would answer that list with the older value.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../../helpers/child-server.js';
import { cloneOf, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { networkYaml } from '../../helpers/fixtures.js';
import { startStandInRelayer, type StandInRelayer } from '../../helpers/stand-in-relayer.js';

const KEY = 'relayer-key-0123456789abcdef';
const OLD = 'https://sepolia-old.example.com';
const NEW = 'https://sepolia-new.example.com';

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

  it('a PATCH on A reaches the relayer, and B, a pull behind, never sets it back: no flip-flop', async () => {
    remote = await startGitRemote({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: [OLD] }) });
    relayer = await startStandInRelayer(KEY, [{ id: 'evm:sepolia', name: 'sepolia', network_type: 'evm', rpc_urls: [{ url: OLD, weight: 100 }] }]);
    const targets = path.join(remote.dir, 'targets.yaml');
    writeFileSync(targets, `relayers:\n  - name: relayer\n    url: ${relayer.url}\n    api_key_env: RELAYER_KEY\n`);
    const env = (i: number) => ({ CONFIG_DIR: path.join(cloneOf(remote, `replica-${i}`), 'config', 'networks'), GIT_SYNC: 'true', GIT_SYNC_INTERVAL_MS: '3600000', RELAYER_SYNC_FILE: targets, RELAYER_SYNC_INTERVAL_MS: '200', RELAYER_SYNC_TIMEOUT_MS: '30000', RELAYER_KEY: KEY });
    replicas = await Promise.all([0, 1].map((i) => startChild(env(i))));
    const [a] = replicas as [ChildServer, ChildServer];
    let release = (): void => undefined;
    relayer.listGate = new Promise((resolve) => (release = resolve));
    const held = relayer.requests.filter((q) => q.method === 'GET').length;
    await relayer.untilRequests(held + 2, 'GET'); // a pass of each replica (one at a time each) is held in its list
    const sent = relayer.nextPatch();
    const res = await fetch(`${a.url}/api/v1/networks/evm:sepolia`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rpc_urls: [NEW] }) });
    expect(res.status).to.equal(200);
    expect((await sent).body).to.deep.equal({ rpc_urls: [{ url: NEW, weight: 100 }] });
    relayer.listGate = null;
    release();
    // Ten more list passes in all (five of each replica at 200 ms): each would have set OLD back without its pull.
    const lists = relayer.requests.filter((q) => q.method === 'GET').length;
    await relayer.untilRequests(lists + 10, 'GET');
    const values = relayer.requests.filter((q) => q.method === 'PATCH').map((q) => (JSON.parse(q.body) as { rpc_urls: Array<{ url: string }> }).rpc_urls[0]?.url);
    // B sends NEW too once its pull serves it (each replica sends what it serves); never OLD.
    expect(new Set(values), 'what the relayer was sent').to.deep.equal(new Set([NEW]));
    expect(relayer.networks.get('evm:sepolia')?.rpc_urls).to.deep.equal([{ url: NEW, weight: 100 }]);
  });
});
