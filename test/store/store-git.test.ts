/**
 * The store's git opens once and hands the writer one write strategy, fixed from then on: nothing
 * outside a work tree, a committer with GIT_COMMIT, git's lock alone in a work tree without it.
 */
import path from 'node:path';
import { expect } from 'chai';
import { StoreGit } from '../../src/store/store-git.js';
import { RetryCounts } from '../../src/store/retries.js';
import { realDisk } from '../../src/store/write/disk-steps.js';
import { WriteLocks } from '../../src/store/write/write-lock.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';
import { initRepo } from '../helpers/git-repo.js';

const CASES = [
  { name: 'outside a work tree', repo: false, gitCommit: false, lock: false, committer: false },
  { name: 'outside a work tree, GIT_COMMIT asked', repo: false, gitCommit: true, lock: false, committer: false },
  { name: 'in a work tree', repo: true, gitCommit: false, lock: true, committer: false },
  { name: 'in a work tree with GIT_COMMIT', repo: true, gitCommit: true, lock: true, committer: true },
];

describe('store/store-git: the write strategy open() gives', () => {
  for (const row of CASES) {
    it(row.name, async () => {
      const root = makeConfigDir({ 'evm/README.md': 'seed\n' });
      if (row.repo) initRepo(root);
      const git = new StoreGit({
        root,
        cloneTop: null,
        author: { name: 'netcfg', email: 'netcfg@localhost' },
        gitCommit: row.gitCommit,
        gitSync: undefined,
        locks: new WriteLocks(() => path.join(root, '.netcfg-locks'), realDisk, { staleMs: 5000, maxWaitMs: 5000 }),
        retries: new RetryCounts(),
      });
      try {
        const strategy = await git.open();
        expect(Object.isFrozen(strategy), 'one value, fixed once open').to.equal(true);
        expect(strategy.gitLock !== null, 'git lock').to.equal(row.lock);
        expect(strategy.committer !== null, 'committer').to.equal(row.committer);
        expect(strategy.gitSync).to.equal(null);
      } finally {
        await git.close();
        removeDir(root);
      }
    });
  }
});
