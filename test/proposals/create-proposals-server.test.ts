/**
 * POST /api/v1/networks proposed on the built server (a child process), with a real remote served by
 * `git daemon` on loopback, a stand-in GitHub and a registry naming a loopback chain stand-in: a propose
 * token's new network is one commit on its branch (read back with git), 202 with the pull request and
 * nothing served or written; a write token writes directly unless it asks to propose; GIT_PROPOSE_ONLY
 * makes every POST a proposal; a network served, or a file of it on main, is 409 and nothing is proposed.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { chainEntry, startChainStandIn, writeRegistry, type ChainStandIn } from '../helpers/chain-stand-in.js';
import { cloneOf } from '../helpers/git-daemon.js';
import { git } from '../helpers/git-repo.js';
import { networkYaml } from '../helpers/fixtures.js';
import { startProposalsWorld, type ProposalsWorld } from '../helpers/proposals-world.js';

const NETWORKS = '/api/v1/networks';
const STANDIN = { id: 'evm:standin', from_registry: true, allow_http: true };
const FILE = 'config/networks/evm/standin.yaml';

describe('POST /api/v1/networks as a proposal on the built server (git daemon on loopback, a stand-in GitHub)', function () {
  this.timeout(60_000);
  let world: ProposalsWorld | undefined;
  let rpc: ChainStandIn;
  let dir: string;

  const start = async (env: Record<string, string> = {}): Promise<ProposalsWorld> => {
    const registry = writeRegistry(dir, [chainEntry(777, 'Stand In', 'standin', [rpc.url])]);
    return (world = await startProposalsWorld({ CHAIN_REGISTRY_FILE: registry, ...env }));
  };
  /** The server's clone: where a written network's file would be. */
  const servedFile = (w: ProposalsWorld): string => path.join(w.remote.dir, 'replica', FILE);

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-create-proposal-'));
    rpc = await startChainStandIn({ chainId: 777, head: 5000, blockSeconds: 3 });
  });
  afterEach(async () => {
    await world?.close();
    world = undefined;
    await rpc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a propose token's POST: 202, its branch holds the new file as one commit on main, a pull request saying where it came from, nothing served", async () => {
    const w = await start();
    const main = w.bare('rev-parse', 'main');
    const res = await w.call('POST', NETWORKS, 'proposer-eu', STANDIN);
    expect(res.status, res.text).to.equal(202);
    const proposal = (res.json.data as { proposal: Record<string, unknown> }).proposal;
    expect(proposal).to.have.keys('number', 'url', 'branch', 'network', 'state', 'updated', 'commit');
    expect(proposal).to.include({
      number: 1,
      branch: 'netcfg/proposer-eu/evm-standin',
      network: 'evm:standin',
      state: 'open',
      updated: false,
    });
    expect(res.headers.get('location')).to.equal(proposal.url);
    const branch = String(proposal.branch);
    expect(w.bare('rev-parse', branch)).to.equal(proposal.commit);
    expect(w.bare('rev-parse', `${branch}^`), 'one commit on main').to.equal(main);
    expect(w.bare('diff', '--name-status', main, branch)).to.equal(`A\t${FILE}`);
    expect(w.bare('log', '-1', '--format=%an|%s', branch)).to.equal('proposer-eu|netcfg: add evm:standin');
    const text = w.bare('show', `${branch}:${FILE}`);
    expect(text).to.match(/^# Added by netcfg add from the chain registry/);
    for (const line of ['chain_id: 777', 'symbol: TST', rpc.url]) expect(text).to.include(line);
    const pull = w.forge.pulls[0]!;
    expect(pull).to.include({ head: branch, base: 'main', title: 'netcfg: add evm:standin' });
    for (const said of ['adds the network `evm:standin`', 'chainId 777 "Stand In"', `\`${rpc.url}\`: kept (ok`])
      expect(pull.body).to.include(said);

    expect((await w.call('GET', `${NETWORKS}/evm:standin`, 'reader')).status, 'nothing served').to.equal(404);
    expect(existsSync(servedFile(w)), 'nothing in the config folder').to.equal(false);
    expect(w.bare('rev-parse', 'main'), 'main is unchanged').to.equal(main);

    // A write token proposes when it asks to; without asking it writes, and a served network is then 409.
    const asked = await w.call('POST', `${NETWORKS}?propose=true`, 'writer', STANDIN);
    expect(asked.status, asked.text).to.equal(202);
    expect((asked.json.data as { proposal: Record<string, unknown> }).proposal).to.include({
      number: 2,
      branch: 'netcfg/writer/evm-standin',
    });
    expect(existsSync(servedFile(w))).to.equal(false);
    const direct = await w.call('POST', NETWORKS, 'writer', STANDIN);
    expect(direct.status, direct.text).to.equal(201);
    expect(existsSync(servedFile(w))).to.equal(true);
    expect(w.bare('log', '-1', '--format=%s', 'main')).to.equal('netcfg: add evm:standin');
    const again = await w.call('POST', NETWORKS, 'proposer-us', STANDIN);
    expect(again.status, again.text).to.equal(409);
    expect(again.json.code).to.equal('NETWORK_EXISTS');
    expect(w.lsRemote('netcfg/proposer-us/evm-standin'), 'no branch for a refused proposal').to.equal('');
    expect(w.forge.pulls).to.have.length(2);
  });

  it('GIT_PROPOSE_ONLY: every POST is a proposal, ?propose=false is 403, dry_run answers; a file on main not yet served is 409', async () => {
    const w = await start({ GIT_PROPOSE_ONLY: 'true', GIT_SYNC_INTERVAL_MS: '3600000' });
    const dry = await w.call('POST', NETWORKS, 'writer', { ...STANDIN, dry_run: true });
    expect(dry.status, dry.text).to.equal(200);
    expect((dry.json.data as { network: Record<string, unknown> }).network).to.include({ chain_id: 777 });
    const refused = await w.call('POST', `${NETWORKS}?propose=false`, 'admin', STANDIN);
    expect(refused.status, refused.text).to.equal(403);
    expect(refused.json.error).to.include('(GIT_PROPOSE_ONLY is set); send the POST without ?propose=false');
    const res = await w.call('POST', NETWORKS, 'writer', STANDIN);
    expect(res.status, res.text).to.equal(202);
    expect((res.json.data as { proposal: Record<string, unknown> }).proposal).to.include({
      branch: 'netcfg/writer/evm-standin',
      network: 'evm:standin',
    });
    expect(w.bare('show', `netcfg/writer/evm-standin:${FILE}`)).to.include('chain_id: 777');
    expect(existsSync(servedFile(w))).to.equal(false);

    // A teammate pushes the network's file to main; the server has not pulled it (an hour's interval).
    const teammate = cloneOf(w.remote, 'teammate');
    git(teammate, 'checkout', '-q', 'main');
    const other = path.join(teammate, 'config', 'networks', 'evm', 'other.yaml');
    writeFileSync(other, networkYaml());
    git(teammate, 'add', '-A');
    git(teammate, 'commit', '-qm', 'add evm:other');
    git(teammate, 'push', '-q', 'origin', 'main');
    const exists = await w.call('POST', NETWORKS, 'admin', { ...STANDIN, id: 'evm:other', chain_id: 777 });
    expect(exists.status, exists.text).to.equal(409);
    expect(exists.json.code).to.equal('NETWORK_EXISTS');
    expect(exists.json.error).to.include('exists already on origin/main');
    expect(w.lsRemote('netcfg/admin/evm-other'), 'nothing proposed').to.equal('');
  });
});
