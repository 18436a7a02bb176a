/**
 * git-sync deploys swap a symlink on the way to the config folder. The watcher follows the link:
 * after a swap the index equals the new tree, and later edits in the new tree are seen.
 */
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir, writeFile } from '../../helpers/fixtures.js';
import { startStore, until, served } from '../../helpers/store.js';
import { networkOf } from '../../../src/store/network-record.js';

describe('store/watcher: a swapped symlink (git-sync)', () => {
  let base: string;
  let store: NetworkStore;
  afterEach(async () => {
    await store.close();
    removeDir(base);
  });

  it('follows the link to the new tree and watches it', async () => {
    base = makeConfigDir();
    for (const rev of ['rev-a', 'rev-b']) mkdirSync(path.join(base, rev));
    writeFile(base, 'rev-a/networks/evm/sepolia.yaml', networkYaml({ rpc_urls: ['https://a.example.com'] }));
    writeFile(base, 'rev-a/networks/evm/old.yaml', networkYaml());
    writeFile(base, 'rev-b/networks/evm/sepolia.yaml', networkYaml({ rpc_urls: ['https://b.example.com'] }));
    writeFile(base, 'rev-b/networks/solana/devnet.yaml', networkYaml());
    symlinkSync('rev-a', path.join(base, 'current'));
    store = await startStore(path.join(base, 'current', 'networks'));
    expect(store.ids().sort()).to.deep.equal(['evm:old', 'evm:sepolia']);

    // As git-sync does it: a new link, renamed over the old one (atomic).
    symlinkSync('rev-b', path.join(base, 'current.new'));
    renameSync(path.join(base, 'current.new'), path.join(base, 'current'));
    const urlOf = (id: string): string | undefined => {
      const record = served(store, id);
      return record ? (networkOf(record).rpc_urls as Array<{ url: string }>)[0]?.url : undefined;
    };
    await until(
      store,
      () =>
        urlOf('evm:sepolia') === 'https://b.example.com' &&
        !store.ids().includes('evm:old') &&
        store.ids().includes('solana:devnet'),
      30_000, // hang bounds (a new tree's watch starts a thread, slow on a busy host)
      'the new tree served',
    );

    // Once the swap's refresh is done (its last look included), before the new tree's watch may be ready: an edit
    // then has no event, and is found by the look made once the new tree is watched.
    await store.whenIdle();
    writeFileSync(
      path.join(base, 'rev-b/networks/evm/sepolia.yaml'),
      networkYaml({ rpc_urls: ['https://b2.example.com'] }),
    );
    await until(store, () => urlOf('evm:sepolia') === 'https://b2.example.com', 30_000, 'an edit in the new tree seen');
  });
});
