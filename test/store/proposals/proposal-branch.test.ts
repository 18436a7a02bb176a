/**
 * A proposal's git against a real remote (a bare repository served by `git daemon` on loopback):
 * one commit on top of the remote's main holding only the change, pushed to the proposal branch
 * with a lease, while the clone GIT_SYNC serves from stays exactly as it was; the branch's name.
 */
import { refusal } from '../../helpers/refusal.js';
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { NetcfgError } from '../../../src/errors.js';
import { ProposalBranches, type ProposalCommit } from '../../../src/store/proposals/proposal-branch.js';
import { proposalBranchOf } from '../../../src/store/proposals/proposal-name.js';
import { WorkTree } from '../../../src/store/git/work-tree.js';
import { requireNetworkId } from '../../../src/store/files/layout.js';
import type { Actor } from '../../../src/store/actor.js';
import { bareOf, cloneOf, gateFirstPush, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { git } from '../../helpers/git-repo.js';
import { networkYaml } from '../../helpers/fixtures.js';
import { startStallServer } from '../../helpers/stall-server.js';

const FILE = 'config/networks/evm/sepolia.yaml';
const BRANCH = 'netcfg/relayer-eu/evm-sepolia';

describe('store/proposals/proposal-branch (a real remote: git daemon on loopback)', function () {
  this.timeout(30_000);
  let remote: GitRemote;
  let replica: string;
  let branches: ProposalBranches;

  const bare = (...args: string[]): string => git(bareOf(remote), ...args).trim();
  const remoteRef = (branch: string): string => bare('for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`);
  /** Everything of the clone a proposal must leave alone: work tree, index, HEAD, every ref, the git folder's files. */
  const cloneState = () => ({
    status: git(replica, 'status', '--porcelain', '--untracked-files=all'),
    index: git(replica, 'ls-files', '--stage'),
    head: git(replica, 'rev-parse', 'HEAD'),
    refs: git(replica, 'for-each-ref'),
    file: readFileSync(path.join(replica, FILE)),
    gitFiles: readdirSync(path.join(replica, '.git')).sort(),
  });
  /** A commit of `text` by relayer-eu, made of the file as the base holds it. */
  const change =
    (text: (old: string) => string) =>
    (file: { bytes: Buffer } | null): ProposalCommit => ({
      text: text((file as { bytes: Buffer }).bytes.toString('utf8')),
      message: 'netcfg: update rpc_urls of evm:sepolia\n\nNetcfg-Actor: token:relayer-eu\n',
      author: 'relayer-eu <relayer-eu@netcfg>',
    });
  const newUrl = (url: string) => change((old) => old.replace('https://rpc.example.com', url));
  const propose = (url: string, expected?: string) =>
    branches.propose({ branch: BRANCH, paths: [FILE, FILE.replace('.yaml', '.yml')], make: newUrl(url), expected });
  /** A teammate's commit to main of another network, pushed: main moves on. */
  const teammateMovesMain = (n: number): string => {
    const teammate = cloneOf(remote, `teammate-${n}`);
    writeFileSync(
      path.join(teammate, 'config/networks/evm/other.yaml'),
      networkYaml({ rpc_urls: [`https://other-${n}.example.com`] }),
    );
    git(teammate, 'add', '-A');
    git(teammate, 'commit', '-qm', `teammate ${n}`);
    git(teammate, 'push', '-q', 'origin', 'main');
    return git(teammate, 'rev-parse', 'HEAD').trim();
  };

  beforeEach(async () => {
    remote = await startGitRemote({ 'evm/sepolia.yaml': networkYaml(), 'evm/mainnet.yaml': networkYaml() });
    replica = cloneOf(remote, 'replica');
    branches = new ProposalBranches(
      (await WorkTree.open(replica, { name: 'netcfg', email: 'netcfg@example.com' }))!,
      'origin/main',
      3000,
    );
  });
  afterEach(async () => {
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  it('pushes one commit on top of main holding only the change, authored as the actor; the clone is as it was', async () => {
    const before = cloneState();
    const proposed = await propose('https://proposed.example.com');
    expect(proposed.branch).to.equal(BRANCH);
    expect(proposed.base).to.equal(bare('rev-parse', 'main'));
    expect(remoteRef(BRANCH)).to.equal(proposed.commit);
    expect(bare('rev-parse', `${proposed.commit}^`)).to.equal(proposed.base);
    expect(bare('diff', '--name-only', proposed.base, proposed.commit)).to.equal(FILE);
    expect(bare('show', `${proposed.commit}:${FILE}`))
      .to.include('https://proposed.example.com')
      .and.not.include('https://rpc.example.com');
    expect(
      bare('log', '-1', '--format=%an <%ae>|%cn <%ce>|%s|%(trailers:key=Netcfg-Actor,valueonly)', proposed.commit),
    ).to.equal(
      'relayer-eu <relayer-eu@netcfg>|netcfg <netcfg@example.com>|netcfg: update rpc_urls of evm:sepolia|token:relayer-eu',
    );
    expect(cloneState()).to.deep.equal(before);
    expect(await branches.remoteOid(BRANCH)).to.equal(proposed.commit);
  });

  it('a second proposal moves the branch: still one commit, on top of the newest main (the clone not pulled)', async () => {
    const first = await propose('https://first.example.com');
    const main = teammateMovesMain(1);
    const before = cloneState();
    const second = await propose('https://second.example.com');
    expect(second.base).to.equal(main);
    expect(remoteRef(BRANCH)).to.equal(second.commit);
    expect(bare('rev-list', '--count', `main..${BRANCH}`)).to.equal('1');
    expect(bare('diff', '--name-only', 'main', BRANCH)).to.equal(FILE);
    expect(bare('show', `${BRANCH}:${FILE}`))
      .to.include('https://second.example.com')
      .and.not.include('https://first.example.com');
    expect(
      () => bare('merge-base', '--is-ancestor', first.commit, BRANCH),
      'the first commit is no longer on the branch',
    ).to.throw();
    expect(cloneState()).to.deep.equal(before);
  });

  it('another branch for another actor, next to the first', async () => {
    await propose('https://eu.example.com');
    const other = proposalBranchOf({ kind: 'token', name: 'relayer-us' }, requireNetworkId('evm:sepolia'));
    const proposed = await branches.propose({ branch: other, paths: [FILE], make: newUrl('https://us.example.com') });
    expect(bare('for-each-ref', '--format=%(refname)', 'refs/heads/netcfg/').split('\n').sort()).to.deep.equal([
      `refs/heads/${BRANCH}`,
      `refs/heads/${other}`,
    ]);
    expect(bare('show', `${proposed.commit}:${FILE}`)).to.include('https://us.example.com');
  });

  const movers = [
    {
      name: 'the branch moved since the oid the caller last saw there (a stale lease)',
      run: async () => {
        const first = await propose('https://first.example.com');
        const moved = await propose('https://moved.example.com');
        return { moved: moved.commit, attempt: propose('https://mine.example.com', first.commit) };
      },
    },
    {
      name: 'someone else moves the branch while the push waits in the remote',
      run: async () => {
        const moved = (await propose('https://theirs.example.com')).commit;
        const gate = gateFirstPush(remote);
        const attempt = propose('https://mine.example.com');
        await gate.waiting();
        bare('update-ref', `refs/heads/${BRANCH}`, bare('rev-parse', `${moved}^`)); // a mover that got in between
        const movedTo = remoteRef(BRANCH);
        gate.release();
        return { moved: movedTo, attempt };
      },
    },
  ];
  for (const { name, run } of movers) {
    it(`a concurrent mover wins cleanly: ${name} -> PROPOSAL_BRANCH_MOVED, the branch left where the mover put it`, async () => {
      const { moved, attempt } = await run();
      const err = await refusal(attempt);
      expect(err.code).to.equal('PROPOSAL_BRANCH_MOVED');
      expect(err.message).to.match(/^netcfg\/relayer-eu\/evm-sepolia was moved on origin by someone else/);
      expect(remoteRef(BRANCH)).to.equal(moved);
    });
  }

  const downs = [
    {
      name: 'stopped',
      down: () => remote.stop(),
      says: /origin refused or could not be reached for the fetch of origin\/main/,
    },
    {
      name: 'never answering',
      down: async () => {
        const stall = await startStallServer();
        git(replica, 'remote', 'set-url', 'origin', `git://127.0.0.1:${stall.port}/networks.git`);
        return () => stall.close();
      },
      says: /origin gave no answer to the fetch of origin\/main within 3000 ms/,
    },
  ];
  for (const { name, down, says } of downs) {
    it(`the remote ${name}: GIT_REMOTE_UNAVAILABLE, nothing left behind in the clone`, async () => {
      const before = cloneState();
      const after = await down();
      const err = await refusal(propose('https://nowhere.example.com'));
      expect(err.code).to.equal('GIT_REMOTE_UNAVAILABLE');
      expect(err.message).to.match(says);
      expect(cloneState()).to.deep.equal(before);
      expect(git(replica, 'for-each-ref', 'refs/netcfg-proposals/', 'refs/remotes/origin/netcfg/')).to.equal('');
      await (typeof after === 'function' ? after() : undefined);
    });
  }

  it('the push refused by the remote (a hook): GIT_REMOTE_UNAVAILABLE, no branch, no ref left', async () => {
    writeFileSync(
      path.join(bareOf(remote), 'hooks', 'pre-receive'),
      '#!/bin/sh\necho "refused by policy" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const before = cloneState();
    const err = await refusal(propose('https://refused.example.com'));
    expect(err.code).to.equal('GIT_REMOTE_UNAVAILABLE');
    expect(remoteRef(BRANCH)).to.equal('');
    expect(cloneState()).to.deep.equal(before);
  });

  it('deleteBranch: removes the branch at the oid given; a moved branch is left (PROPOSAL_BRANCH_MOVED); a gone one is done', async () => {
    const first = await propose('https://first.example.com');
    const second = await propose('https://second.example.com');
    const err = await refusal(branches.deleteBranch(BRANCH, first.commit));
    expect(err.code).to.equal('PROPOSAL_BRANCH_MOVED');
    expect(remoteRef(BRANCH)).to.equal(second.commit);
    const before = cloneState();
    await branches.deleteBranch(BRANCH, second.commit);
    expect(remoteRef(BRANCH)).to.equal('');
    expect(await branches.remoteOid(BRANCH)).to.equal('');
    await branches.deleteBranch(BRANCH, second.commit);
    expect(cloneState()).to.deep.equal(before);
  });

  const mainChanges = [
    {
      name: 'the network deleted there',
      edit: (clone: string) => git(clone, 'rm', '-q', FILE),
      seen: [null],
      code: 'NETWORK_NOT_FOUND',
    },
    {
      name: 'its file made a link there',
      edit: (clone: string) => {
        git(clone, 'rm', '-q', FILE);
        symlinkSync('mainnet.yaml', path.join(clone, FILE));
        git(clone, 'add', FILE);
      },
      seen: [],
      code: 'FILE_INVALID',
    },
  ];
  for (const { name, edit, seen, code } of mainChanges) {
    it(`${name} on main: ${code}, nothing pushed`, async () => {
      const teammate = cloneOf(remote, 'teammate');
      edit(teammate);
      git(teammate, 'commit', '-qm', name);
      git(teammate, 'push', '-q', 'origin', 'main');
      const asked: unknown[] = [];
      const make = (file: unknown): ProposalCommit => {
        asked.push(file);
        throw new NetcfgError('NETWORK_NOT_FOUND', 'not there');
      };
      const err = await refusal(branches.propose({ branch: BRANCH, paths: [FILE], make }));
      expect(err.code).to.equal(code);
      expect(asked).to.deep.equal(seen);
      expect(remoteRef(BRANCH)).to.equal('');
    });
  }
});

describe('store/proposals/proposal-name: one branch per network and actor, each a valid ref', () => {
  const id = requireNetworkId('evm:sepolia');
  const cases: Array<{ actor: Actor; id?: string; branch: RegExp }> = [
    { actor: { kind: 'token', name: 'relayer-eu' }, branch: /^netcfg\/relayer-eu\/evm-sepolia$/ },
    { actor: { kind: 'token', name: 'api-key' }, branch: /^netcfg\/api-key\/evm-sepolia$/ },
    { actor: { kind: 'token', name: 'ops.team_1' }, branch: /^netcfg\/ops\.team_1\/evm-sepolia$/ },
    { actor: { kind: 'token', name: 'a..b' }, branch: /^netcfg\/token-a-b-[0-9a-f]{8}\/evm-sepolia$/ },
    { actor: { kind: 'token', name: 'x.lock' }, branch: /^netcfg\/token-x-lock-[0-9a-f]{8}\/evm-sepolia$/ },
    { actor: { kind: 'token', name: 'trailing.' }, branch: /^netcfg\/token-trailing-[0-9a-f]{8}\/evm-sepolia$/ },
    { actor: { kind: 'system', name: 'rpc-prober' }, branch: /^netcfg\/system-rpc-prober-[0-9a-f]{8}\/evm-sepolia$/ },
    {
      actor: { kind: 'token', name: 'relayer-eu' },
      id: 'my-fam:net',
      branch: /^netcfg\/relayer-eu\/my-fam-net-[0-9a-f]{8}$/,
    },
  ];
  for (const { actor, id: other, branch } of cases) {
    it(`${actor.kind}:${actor.name} on ${other ?? id.id} -> ${branch.source}, which git takes as a branch`, () => {
      const name = proposalBranchOf(actor, other ? requireNetworkId(other) : id);
      expect(name).to.match(branch);
      expect(git(process.cwd(), 'check-ref-format', '--branch', name).trim()).to.equal(name);
    });
  }

  it('networks whose parts read alike get different branches', () => {
    const actor: Actor = { kind: 'token', name: 'relayer-eu' };
    expect(proposalBranchOf(actor, requireNetworkId('a-b:c'))).to.not.equal(
      proposalBranchOf(actor, requireNetworkId('a:b-c')),
    );
    expect(proposalBranchOf({ kind: 'system', name: 'x' }, id)).to.not.equal(
      proposalBranchOf({ kind: 'token', name: 'system-x' }, id),
    );
  });
});
