/**
 * The clone's setup for GIT_SYNC, on real files: a stale index.lock cleared while a fresh one is waited for.
 */
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { clearStaleIndexLock } from '../../../src/store/git/clone-setup.js';

describe('store/git/clone-setup', () => {
  describe('clearStaleIndexLock', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-lock-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('no lock: nothing to do', async () => {
      expect(await clearStaleIndexLock(path.join(dir, 'index.lock'), 1000)).to.equal('none');
    });

    it('a lock untouched for longer than staleMs (left by a killed git) is removed', async () => {
      const lock = path.join(dir, 'index.lock');
      writeFileSync(lock, '');
      const old = new Date(Date.now() - 60_000);
      utimesSync(lock, old, old);
      expect(await clearStaleIndexLock(lock, 5000)).to.equal('removed');
      expect(existsSync(lock)).to.equal(false);
    });

    it('a fresh lock (a git still at work) is waited for until it goes', async () => {
      const lock = path.join(dir, 'index.lock');
      writeFileSync(lock, '');
      const cleared = clearStaleIndexLock(lock, 60_000);
      rmSync(lock); // git finished
      expect(await cleared).to.equal('gone');
    });
  });
});
