/**
 * A file git rewrites never vanishes from what is served: git removes a file before it writes its new version,
 * and a pull or checkout on a loaded host can leave it missing for longer than the watcher's stable wait (seen in
 * a stress run: `store.get` answered NOT_FOUND mid-pull). Here a real work tree and git's real lock file stand for
 * a slow git: `index.lock` taken, the file removed, then written again and the lock let go, each step awaited.
 */
import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { IndexChange, NetworkStore } from '../../../src/store/index.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../../helpers/fixtures.js';
import { initRepo } from '../../helpers/git-repo.js';
import { startStore, until } from '../../helpers/store.js';

describe('store/watch: a network git rewrites stays served while git holds the work tree (real work tree)', () => {
  let repo: string;
  let store: NetworkStore;
  beforeEach(async () => {
    repo = makeConfigDir(
      Object.fromEntries(Object.entries(standardFiles()).map(([rel, text]) => [`config/networks/${rel}`, text])),
    );
    initRepo(repo);
    store = await startStore(path.join(repo, 'config', 'networks'));
  });
  afterEach(async () => {
    await store.close();
    removeDir(repo);
  });

  const cases: Array<{ name: string; after: 'rewritten' | 'removed'; kinds: string[] }> = [
    { name: 'removed, then written anew (a pull changing it)', after: 'rewritten', kinds: ['modified'] },
    { name: 'removed for good (a pull deleting it)', after: 'removed', kinds: ['deleted'] },
  ];
  for (const c of cases) {
    it(`${c.name}: nothing moves while git holds index.lock; once it lets go, the outcome is served`, async () => {
      const indexLock = path.join(repo, '.git', 'index.lock');
      const file = path.join(repo, 'config', 'networks', 'evm', 'mainnet.yaml');
      const changes: IndexChange[] = [];
      const unsubscribe = store.subscribe((change) => changes.push(change));
      try {
        writeFileSync(indexLock, ''); // what a running git holds
        unlinkSync(file);
        // Held, or (before this was fixed) served as gone: either ends the wait.
        await until(
          store,
          () => store.counts().watcherWaitingForGit > 0 || changes.length > 0,
          10_000,
          'the removal seen',
        );
        expect(
          changes.map((ch) => `${ch.kind} ${ch.id}`),
          'nothing served changed while git ran',
        ).to.deep.equal([]);
        expect(store.get('evm:mainnet').id).to.equal('evm:mainnet');
        if (c.after === 'rewritten') writeFileSync(file, networkYaml({ rpc_urls: ['https://rewritten.example.com'] }));
        rmSync(indexLock);
        await until(store, () => changes.length > 0 && store.counts().watcherWaitingForGit === 0, 10_000, 'served');
        await store.whenIdle();
        expect(changes.map((ch) => `${ch.kind} ${ch.id}`)).to.deep.equal(c.kinds.map((k) => `${k} evm:mainnet`));
        if (c.after === 'rewritten') expect(store.get('evm:mainnet').body).to.include('rewritten.example.com');
        else expect(() => store.get('evm:mainnet')).to.throw('was not found');
      } finally {
        unsubscribe();
      }
    });
  }
});
