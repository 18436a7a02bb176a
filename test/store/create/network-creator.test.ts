/**
 * The store's create on a real folder: the file written under the comment, served at once (an
 * `added` change with its actor), committed with the actor as author (GIT_COMMIT); an existing
 * network or file is NETWORK_EXISTS and a bad network VALIDATION_FAILED with pointers, nothing written.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { NetworkStore } from '../../../src/store/index.js';
import { git, initRepo } from '../../helpers/git-repo.js';
import { bareOf, cloneOf, remoteFile, remoteSubjects, startGitRemote } from '../../helpers/git-daemon.js';
import { makeConfigDir, networkYaml, removeDir, writeFile } from '../../helpers/fixtures.js';
import { nextChange, startStore } from '../../helpers/store.js';
import { refusal } from '../../helpers/refusal.js';

const ALICE = { kind: 'token' as const, name: 'alice' };
const FIELDS = { rpc_urls: ['https://rpc.new.example.org'], chain_id: 4242, symbol: 'NEW', required_confirmations: 2 };

describe('store: create', () => {
  let root: string;
  let store: NetworkStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    removeDir(root);
  });

  it('writes, serves at once with an added change, and commits as its actor', async () => {
    root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml() });
    initRepo(root);
    store = await startStore(root, { gitCommit: true, watch: { debounceMs: 50 } });
    const added = nextChange(store, (c) => c.id === 'evm:newchain');
    const record = await store.create('evm:newchain', FIELDS, ['From a test.'], ALICE);
    expect((await added).kind).to.equal('added');
    expect((await added).actor).to.equal('token:alice');
    expect(store.get('evm:newchain').etag).to.equal(record.etag);
    const text = readFileSync(path.join(root, 'evm', 'newchain.yaml'), 'utf8');
    expect(text.startsWith('# From a test.\nrpc_urls:\n  - https://rpc.new.example.org\nchain_id: 4242\n')).to.equal(
      true,
    );
    await store.writesSettled();
    expect(git(root, 'log', '-1', '--format=%an|%s', '--', 'evm/newchain.yaml').trim()).to.equal(
      'alice|netcfg: add evm:newchain',
    );
    expect(git(root, 'status', '--porcelain').trim()).to.equal('');
  });

  it('GIT_SYNC: pushed before the answer, committed as its actor, served', async function () {
    this.timeout(20_000);
    const remote = await startGitRemote({ 'evm/sepolia.yaml': networkYaml() });
    root = remote.dir;
    const folder = path.join(cloneOf(remote, 'replica'), 'config', 'networks');
    store = await startStore(folder, { gitSync: { intervalMs: 3_600_000 } });
    try {
      await store.create('evm:newchain', FIELDS, ['From a test.'], ALICE);
      expect(remoteFile(remote, 'evm/newchain.yaml')).to.include('chain_id: 4242');
      expect(remoteSubjects(remote)[0]).to.equal('netcfg: add evm:newchain');
      expect(git(bareOf(remote), 'log', '-1', '--format=%an', 'main').trim()).to.equal('alice');
      expect(store.get('evm:newchain').path).to.equal('evm/newchain.yaml');
    } finally {
      await store.close();
      store = undefined;
      await remote.stop();
      rmSync(remote.dir, { recursive: true, force: true });
    }
  });

  const refused: Array<[string, () => void, string, unknown, string]> = [
    ['a network served already', () => undefined, 'evm:sepolia', FIELDS, 'NETWORK_EXISTS'],
    [
      'a .yml file of that id on disk',
      () => writeFile(root, 'evm/other.yml', 'not: [valid'),
      'evm:other',
      FIELDS,
      'NETWORK_EXISTS',
    ],
    ['no rpc_urls', () => undefined, 'evm:new', { chain_id: 1 }, 'VALIDATION_FAILED'],
    ['a chain_id that is no integer', () => undefined, 'evm:new', { ...FIELDS, chain_id: 'x' }, 'VALIDATION_FAILED'],
    ['a bad id', () => undefined, 'EVM:New', FIELDS, 'INVALID_ID'],
  ];
  for (const [what, arrange, id, fields, code] of refused) {
    it(`refused, nothing written: ${what} -> ${code}`, async () => {
      root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml() });
      arrange();
      store = await startStore(root, { watch: { debounceMs: 50 } });
      const before = readFileSync(path.join(root, 'evm', 'sepolia.yaml'), 'utf8');
      const err = await refusal(store.create(id, fields as Record<string, unknown>, [], ALICE));
      expect(err.code).to.equal(code);
      if (code === 'VALIDATION_FAILED') expect(err.details?.[0]?.pointer).to.match(/^\/(rpc_urls|chain_id)?/);
      expect(existsSync(path.join(root, 'evm', 'new.yaml'))).to.equal(false);
      expect(readFileSync(path.join(root, 'evm', 'sepolia.yaml'), 'utf8')).to.equal(before);
    });
  }
});
