/**
 * store.proposeCreate against a real remote (a bare repository served by `git daemon` on loopback):
 * the file create() would write is one commit adding it on the actor's branch, and nothing served or
 * in the clone changes; a network served, or a file of it on the remote's head, is NETWORK_EXISTS and
 * nothing is pushed; a bad network is refused before the remote is asked.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Actor } from '../../../src/store/actor.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { cloneOf, type GitRemote } from '../../helpers/git-daemon.js';
import { startProposalReplica, type ProposalReplica } from '../../helpers/proposal-replica.js';
import { git } from '../../helpers/git-repo.js';
import { networkYaml } from '../../helpers/fixtures.js';
import { refusal } from '../../helpers/refusal.js';

const FILE = 'config/networks/evm/newnet.yaml';
const EU: Actor = { kind: 'token', name: 'relayer-eu' };
const FIELDS = { chain_id: 4242, symbol: 'NEW', rpc_urls: ['https://rpc.newnet.example.com'] };
const COMMENT = ['Added by a test, from its body alone.'];

describe('store/proposals/proposal: store.proposeCreate (a real remote: git daemon on loopback)', function () {
  this.timeout(30_000);
  let world: ProposalReplica | undefined;
  let remote: GitRemote;
  let replica: string;
  let store: NetworkStore | undefined;

  const bare = (...args: string[]): string => world!.bare(...args);
  const refs = () => bare('for-each-ref', '--format=%(refname)');
  const cloneState = () => ({
    revision: store!.revision(),
    ids: store!.ids(),
    status: git(replica, 'status', '--porcelain', '--untracked-files=all'),
    head: git(replica, 'rev-parse', 'HEAD'),
    main: bare('rev-parse', 'main'),
  });

  beforeEach(async () => {
    world = await startProposalReplica({ 'evm/sepolia.yaml': networkYaml() });
    ({ remote, replica, store } = world);
  });
  afterEach(async () => {
    await world?.close();
    world = store = undefined;
  });

  it("commits the new file on the actor's branch for the network, on main; nothing served or in the clone changes", async () => {
    const before = cloneState();
    const proposal = await store!.proposeCreate('evm:newnet', FIELDS, COMMENT, EU);
    expect(proposal).to.deep.include({
      branch: 'netcfg/relayer-eu/evm-newnet',
      base: before.main,
      previous: '',
      network: 'evm:newnet',
      subject: 'netcfg: add evm:newnet',
      old_rpc_urls: [],
      new_rpc_urls: [{ url: 'https://rpc.newnet.example.com', weight: 100 }],
      findings: [],
    });
    expect(bare('rev-parse', proposal.branch)).to.equal(proposal.commit);
    expect(bare('rev-parse', `${proposal.commit}^`)).to.equal(before.main);
    expect(bare('diff', '--name-status', 'main', proposal.commit)).to.equal(`A\t${FILE}`);
    const text = bare('show', `${proposal.commit}:${FILE}`);
    expect(text).to.match(/^# Added by a test, from its body alone\.\n/);
    expect(text).to.include('chain_id: 4242');
    expect(bare('log', '-1', '--format=%an|%s|%(trailers:key=Netcfg-Actor,valueonly)', proposal.commit)).to.equal(
      'relayer-eu|netcfg: add evm:newnet|token:relayer-eu',
    );
    await store!.whenIdle();
    expect(cloneState()).to.deep.equal(before);
    expect(existsSync(path.join(replica, FILE))).to.equal(false);
  });

  const refused: Array<{
    what: string;
    id: string;
    fields: Record<string, unknown>;
    code: string;
    before?: () => void;
  }> = [
    { what: 'a network served', id: 'evm:sepolia', fields: FIELDS, code: 'NETWORK_EXISTS' },
    {
      what: "a file of it on the remote's head, not yet pulled",
      id: 'evm:newnet',
      fields: FIELDS,
      code: 'NETWORK_EXISTS',
      before: () => {
        const teammate = cloneOf(remote, 'teammate');
        writeFileSync(path.join(teammate, FILE), networkYaml());
        git(teammate, 'add', '-A');
        git(teammate, 'commit', '-qm', 'add evm:newnet');
        git(teammate, 'push', '-q', 'origin', 'main');
      },
    },
    { what: 'an invalid network', id: 'evm:newnet', fields: { chain_id: 'x' }, code: 'VALIDATION_FAILED' },
  ];
  for (const { what, id, fields, code, before } of refused)
    it(`${code}: ${what}; nothing is pushed`, async () => {
      before?.();
      const refsBefore = refs();
      const err = await refusal(store!.proposeCreate(id, fields, COMMENT, EU));
      expect(err.code, err.message).to.equal(code);
      expect(refs()).to.equal(refsBefore);
    });
});
