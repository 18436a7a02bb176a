/**
 * The store as the HTTP layer and main see it, and nothing else: get, page, ids, update (with and
 * without If-Match), subscribe, revision and changesSince, readiness and close, on a real folder
 * watched for real. What is behind it (the index, the change log, the watcher) is not reached.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ANONYMOUS } from '../../src/store/actor.js';
import type { IndexChange } from '../../src/store/index/network-index.js';
import { networkOf } from '../../src/store/network-record.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../helpers/fixtures.js';
import { nextChange, startStore } from '../helpers/store.js';

describe('store/network-store: the facade', () => {
  let root: string;
  let store: NetworkStore;
  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    store = await startStore(root);
  });
  afterEach(async () => {
    await store.close();
    removeDir(root);
  });

  const urls = (id: string): string[] =>
    (networkOf(store.get(id)).rpc_urls as Array<{ url: string }>).map((u) => u.url);
  const refusal = (fn: () => unknown): Promise<{ code?: string }> =>
    Promise.resolve()
      .then(fn)
      .then(
        () => ({}),
        (err: { code?: string }) => err,
      );

  it('get, ids and page: what is on disk, in id order, by family', () => {
    expect(store.ids().sort()).to.deep.equal(['evm:mainnet', 'evm:sepolia', 'solana:devnet']);
    expect(store.get('evm:sepolia')).to.include({ id: 'evm:sepolia', path: 'evm/sepolia.yaml' });
    const all = store.page(0, 10);
    expect(all.records.map((r) => r.id)).to.deep.equal(['evm:mainnet', 'evm:sepolia', 'solana:devnet']);
    expect(all).to.include({ total: 3, revision: store.revision() });
    expect(store.page(1, 1, 'evm').records.map((r) => r.id)).to.deep.equal(['evm:sepolia']);
  });

  const refused: Array<[string, () => unknown, string]> = [
    ['an id that is not one', () => store.get('EVM:../x'), 'INVALID_ID'],
    ['an unknown network', () => store.get('evm:nope'), 'NETWORK_NOT_FOUND'],
    [
      'a body that is not a PATCH',
      () => store.update('evm:sepolia', { chain_id: 1 }, undefined, ANONYMOUS),
      'VALIDATION_FAILED',
    ],
    [
      'a stale If-Match',
      () => store.update('evm:sepolia', { rpc_urls: ['https://x.example.com'] }, '"stale"', ANONYMOUS),
      'PRECONDITION_FAILED',
    ],
  ];
  for (const [what, call, code] of refused) {
    it(`refuses ${what}: ${code}, nothing written`, async () => {
      const before = readFileSync(path.join(root, 'evm/sepolia.yaml'), 'utf8');
      expect((await refusal(call)).code).to.equal(code);
      expect(readFileSync(path.join(root, 'evm/sepolia.yaml'), 'utf8')).to.equal(before);
    });
  }

  it('update without and with If-Match: written, served at once, heard by subscribers with its actor, and kept in the change log', async () => {
    const heard: IndexChange[] = [];
    const off = store.subscribe((c) => heard.push(c));
    const from = store.revision();
    const first = await store.update('evm:sepolia', { rpc_urls: ['https://one.example.com'] }, undefined, ANONYMOUS);
    expect(urls('evm:sepolia')).to.deep.equal(['https://one.example.com']);
    const second = await store.update('evm:sepolia', { rpc_urls: ['https://two.example.com'] }, first.record.etag, {
      kind: 'token',
      name: 'ops',
    });
    expect(second.record.etag).to.not.equal(first.record.etag);
    expect(readFileSync(path.join(root, 'evm/sepolia.yaml'), 'utf8'))
      .to.include('https://two.example.com')
      .and.include('# test network');
    off();
    expect(heard.map((c) => [c.kind, c.id, c.actor])).to.deep.equal([
      ['modified', 'evm:sepolia', 'token:anonymous'],
      ['modified', 'evm:sepolia', 'token:ops'],
    ]);
    expect(store.changesSince(from)?.map((c) => c.etag)).to.deep.equal([first.record.etag, second.record.etag]);
    expect(store.changesSince(-5)).to.equal(null);
  });

  it('a file changed on disk is served once the watcher saw it; readiness reports what is wrong', async () => {
    const edited = nextChange(store, (c) => c.id === 'evm:mainnet');
    writeFileSync(path.join(root, 'evm/mainnet.yaml'), networkYaml({ rpc_urls: ['https://edited.example.com'] }));
    expect((await edited).actor).to.equal(null);
    expect(urls('evm:mainnet')).to.deep.equal(['https://edited.example.com']);
    writeFileSync(path.join(root, 'evm/mainnet.yaml'), 'rpc_urls: [\n');
    await store.whenIdle();
    const ready = store.readiness();
    expect(ready).to.include({ ready: true, status: 'degraded' });
    expect(ready.components.index.invalid_files.map((f) => f.path)).to.deep.equal(['evm/mainnet.yaml']);
    expect(urls('evm:mainnet'), 'the last good version stays served').to.deep.equal(['https://edited.example.com']);
  });

  it('close: waits for writes, then refuses new ones', async () => {
    const writing = store.update('evm:sepolia', { rpc_urls: ['https://late.example.com'] }, undefined, ANONYMOUS);
    await store.close();
    expect((await writing).record.id).to.equal('evm:sepolia');
    expect(readFileSync(path.join(root, 'evm/sepolia.yaml'), 'utf8')).to.include('https://late.example.com');
    expect(
      (
        await refusal(() =>
          store.update('evm:sepolia', { rpc_urls: ['https://after.example.com'] }, undefined, ANONYMOUS),
        )
      ).code,
    ).to.equal('NOT_READY');
  });
});
