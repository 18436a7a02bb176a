/**
 * The clone's setup for GIT_SYNC, on real files: git's messages without a URL's credentials, its
 * refusals told from other failures, and a stale index.lock cleared while a fresh one is waited for.
 */
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { clearStaleIndexLock, firstLine, isRejection, redacted } from '../../../src/store/git/clone-setup.js';

describe('store/git/clone-setup', () => {
  const urls: Array<[string, string]> = [
    ["fatal: unable to access 'https://user:ghp_secret@github.com/acme/networks/'", "fatal: unable to access 'https://***@github.com/acme/networks/'"],
    ['fatal: could not read from https://x-access-token:tok3n@host/x.git', 'fatal: could not read from https://***@host/x.git'],
    ['ssh://git:pw@example.com:22/x.git and http://a@b/c', 'ssh://***@example.com:22/x.git and http://***@b/c'],
    ['fatal: repository https://github.com/acme/networks not found', 'fatal: repository https://github.com/acme/networks not found'],
  ];
  for (const [said, shown] of urls) {
    it(`redacts ${said.slice(0, 48)}...`, () => {
      expect(redacted(said)).to.equal(shown);
      expect(firstLine({ stderr: `${said}\nsecond line` })).to.equal(shown);
    });
  }

  const refusals: Array<[string, boolean]> = [
    [' ! [rejected]        HEAD -> main (fetch first)', true],
    [' ! [rejected]        HEAD -> main (non-fast-forward)', true],
    ["error: cannot lock ref 'refs/heads/main': is at 1234 but expected 5678", true],
    ['remote: error: failed to update ref refs/heads/main', true],
    ["fatal: unable to access 'http://127.0.0.1:9/x.git/': Failed to connect", false],
    ['fatal: Could not read from remote repository.', false],
  ];
  for (const [stderr, rejection] of refusals) {
    it(`${rejection ? 'a rejection' : 'not a rejection'}: ${stderr.trim().slice(0, 50)}`, () => {
      expect(isRejection({ stderr })).to.equal(rejection);
    });
  }

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
