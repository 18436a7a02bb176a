/**
 * store.proposeUpdate against a real remote (a bare repository served by `git daemon` on loopback):
 * a PATCH's checked change goes to the actor's proposal branch as one commit on top of main, and
 * nothing served changes (the version, the file, the clone); refusals come before the remote is asked.
 */
import { refusal } from '../../helpers/refusal.js';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { NetcfgError } from '../../../src/errors.js';
import type { Actor } from '../../../src/store/actor.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { cloneOf, type GitRemote } from '../../helpers/git-daemon.js';
import { startProposalReplica, type ProposalReplica } from '../../helpers/proposal-replica.js';
import { git } from '../../helpers/git-repo.js';
import { makeConfigDir, networkYaml } from '../../helpers/fixtures.js';
import { startStore } from '../../helpers/store.js';

const FILE = 'config/networks/evm/sepolia.yaml';
const EU: Actor = { kind: 'token', name: 'relayer-eu' };
const US: Actor = { kind: 'token', name: 'relayer-us' };
const BODY = { rpc_urls: ['https://proposed.example.com'] };

describe('store/proposals/proposal: store.proposeUpdate (a real remote: git daemon on loopback)', function () {
  this.timeout(30_000);
  let world: ProposalReplica | undefined;
  let remote: GitRemote;
  let replica: string;
  let store: NetworkStore | undefined;

  const bare = (...args: string[]): string => world!.bare(...args);
  const remoteRef = (branch: string): string => bare('for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`);
  /** What is served and what the clone holds: none of it may change by a proposal. */
  const servedState = () => ({
    etag: store!.get('evm:sepolia').etag,
    body: store!.get('evm:sepolia').body,
    revision: store!.revision(),
    file: readFileSync(path.join(replica, FILE)),
    status: git(replica, 'status', '--porcelain', '--untracked-files=all'),
    head: git(replica, 'rev-parse', 'HEAD'),
    index: git(replica, 'ls-files', '--stage'),
    refs: git(replica, 'for-each-ref'),
    main: bare('rev-parse', 'main'),
  });
  /** A teammate's commit to main, pushed: `file` (under config/networks/) rewritten by `edit`. */
  const teammatePushes = (name: string, file: string, edit: (text: string) => string): string => {
    const teammate = cloneOf(remote, name);
    const abs = path.join(teammate, 'config/networks', file);
    writeFileSync(abs, edit(readFileSync(abs, 'utf8')));
    git(teammate, 'commit', '-qam', name);
    git(teammate, 'push', '-q', 'origin', 'main');
    return git(teammate, 'rev-parse', 'HEAD').trim();
  };

  beforeEach(async () => {
    world = await startProposalReplica({ 'evm/sepolia.yaml': networkYaml(), 'evm/mainnet.yaml': networkYaml() });
    ({ remote, replica, store } = world);
  });
  afterEach(async () => {
    await world?.close();
    world = store = undefined;
  });

  it("proposes the change as the PATCH's commit on the actor's branch; nothing served changes", async () => {
    const before = servedState();
    const proposal = await store!.proposeUpdate('evm:sepolia', BODY, store!.get('evm:sepolia').etag, EU);
    expect(proposal).to.deep.include({
      branch: 'netcfg/relayer-eu/evm-sepolia',
      base: before.main,
      network: 'evm:sepolia',
      subject: 'netcfg: update rpc_urls of evm:sepolia',
      old_rpc_urls: [
        { url: 'https://rpc.example.com', weight: 100 },
        { url: 'https://backup.example.com', weight: 30 },
      ],
      new_rpc_urls: [{ url: 'https://proposed.example.com', weight: 100 }],
      findings: [],
    });
    expect(remoteRef(proposal.branch)).to.equal(proposal.commit);
    expect(bare('rev-parse', `${proposal.commit}^`)).to.equal(before.main);
    expect(bare('diff', '--name-only', 'main', proposal.commit)).to.equal(FILE);
    expect(bare('show', `${proposal.commit}:${FILE}`)).to.equal(
      networkYaml({ rpc_urls: ['https://proposed.example.com'] }).trimEnd(),
    );
    expect(bare('log', '-1', '--format=%an <%ae>|%(trailers:key=Netcfg-Actor,valueonly)', proposal.commit)).to.equal(
      'relayer-eu <relayer-eu@netcfg>|token:relayer-eu',
    );
    await store!.whenIdle();
    expect(servedState()).to.deep.equal(before);
  });

  it('the same actor again moves its branch onto the newest main; another actor gets another branch', async () => {
    const first = await store!.proposeUpdate('evm:sepolia', BODY, undefined, EU);
    const main = teammatePushes('teammate', 'evm/mainnet.yaml', (t) =>
      t.replace('https://rpc.example.com', 'https://mainnet.example.com'),
    );
    const before = servedState();
    const second = await store!.proposeUpdate(
      'evm:sepolia',
      { rpc_urls: ['https://second.example.com'] },
      undefined,
      EU,
    );
    expect(second.branch).to.equal(first.branch);
    expect(second.base).to.equal(main);
    expect(remoteRef(second.branch)).to.equal(second.commit);
    expect(bare('rev-list', '--count', `main..${second.branch}`)).to.equal('1');
    expect(bare('diff', '--name-only', 'main', second.branch)).to.equal(FILE);
    const us = await store!.proposeUpdate('evm:sepolia', { rpc_urls: ['https://us.example.com'] }, undefined, US);
    expect(us.branch).to.equal('netcfg/relayer-us/evm-sepolia');
    expect(remoteRef(first.branch)).to.equal(second.commit);
    expect(bare('show', `${us.commit}:${FILE}`)).to.include('https://us.example.com');
    expect(servedState()).to.deep.equal(before);
  });

  const refusedFirst = [
    { name: 'a stale If-Match', body: BODY, ifMatch: '"stale"', code: 'PRECONDITION_FAILED' },
    { name: 'a body the schema refuses', body: { rpc_urls: 'nope' }, ifMatch: undefined, code: 'VALIDATION_FAILED' },
    {
      name: 'a URL the rules refuse',
      body: { rpc_urls: ['ftp://rpc.example.com'] },
      ifMatch: undefined,
      code: 'VALIDATION_FAILED',
    },
  ];
  for (const { name, body, ifMatch, code } of refusedFirst) {
    it(`${name}: ${code} without asking the remote (it is down: not 503), nothing changed`, async () => {
      await remote.stop();
      const before = { ...servedState(), main: '' };
      const err = await refusal(store!.proposeUpdate('evm:sepolia', body, ifMatch, EU));
      expect(err.code).to.equal(code);
      if (code === 'PRECONDITION_FAILED') expect(err.etag).to.equal(before.etag);
      expect({ ...servedState(), main: '' }).to.deep.equal(before);
      expect(remoteRef('netcfg/relayer-eu/evm-sepolia')).to.equal('');
    });
  }

  it(
    'main changed the file since the version served: an If-Match of that version is 412 once the new one ' +
      'is served; without If-Match the change is made on the new one',
    async () => {
      const served = store!.get('evm:sepolia').etag;
      teammatePushes('teammate', 'evm/sepolia.yaml', (t) =>
        t.replace('chain_id: 11155111 # sepolia', 'chain_id: 11155111 # sepolia, by a teammate'),
      );
      const err = await refusal(store!.proposeUpdate('evm:sepolia', BODY, served, EU));
      expect(err.code).to.equal('PRECONDITION_FAILED');
      expect(err.message).to.match(/was changed on origin\/main since the ETag in If-Match was read/);
      expect(remoteRef('netcfg/relayer-eu/evm-sepolia')).to.equal('');
      expect(store!.get('evm:sepolia').etag, 'the new version served, so a GET finds it')
        .to.equal(err.etag)
        .and.not.equal(served);
      const proposal = await store!.proposeUpdate('evm:sepolia', BODY, undefined, EU);
      const text = bare('show', `${proposal.commit}:${FILE}`);
      expect(text).to.include('by a teammate').and.include('https://proposed.example.com');
      expect(bare('diff', '--stat', 'main', proposal.commit)).to.match(
        /1 file changed, 1 insertion\(\+\), 3 deletions\(-\)/,
      );
    },
  );

  it('the remote down: GIT_REMOTE_UNAVAILABLE, nothing served changes', async () => {
    const before = servedState();
    await remote.stop();
    const err = await refusal(store!.proposeUpdate('evm:sepolia', BODY, before.etag, EU));
    expect(err.code).to.equal('GIT_REMOTE_UNAVAILABLE');
    expect(servedState()).to.deep.equal(before);
  });

  it('a change main holds already: BAD_REQUEST, nothing to propose', async () => {
    const same = { rpc_urls: ['https://rpc.example.com', { url: 'https://backup.example.com', weight: 30 }] };
    const err = await refusal(store!.proposeUpdate('evm:sepolia', same, undefined, EU));
    expect(err.code).to.equal('BAD_REQUEST');
    expect(remoteRef('netcfg/relayer-eu/evm-sepolia')).to.equal('');
  });
});

describe('store/proposals/proposal without GIT_SYNC', () => {
  it('NOT_IMPLEMENTED: a proposal needs the clone GIT_SYNC follows', async () => {
    const dir = makeConfigDir({ 'evm/sepolia.yaml': networkYaml() });
    const store = await startStore(dir);
    try {
      const err = await store.proposeUpdate('evm:sepolia', BODY, undefined, EU).catch((e: unknown) => e as NetcfgError);
      expect((err as NetcfgError).code).to.equal('NOT_IMPLEMENTED');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
