/**
 * A PATCH in a git work tree waits while a git command holds the work tree's index.lock (a
 * checkout, a pull), on a real repository: it then applies to the file as git left it, never to
 * the one git was replacing. The lock is made by hand, as git makes it (a file in .git/), so each
 * test controls exactly when "git" starts and ends.
 */
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import type Koa from 'koa';
import { createApp } from '../../../src/http/app.js';
import { realDisk, type DiskSteps } from '../../../src/store/write/disk-steps.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../../helpers/fixtures.js';
import { git, initRepo } from '../../helpers/git-repo.js';
import { startStore, until } from '../../helpers/store.js';

describe('store/git-index-lock (real repository)', () => {
  let root: string;
  let store: NetworkStore;
  let app: Koa;
  const indexLock = (): string => path.join(root, '.git', 'index.lock');
  const sepolia = (): string => path.join(root, 'evm', 'sepolia.yaml');
  const waiting = (): number | undefined => store.readiness().components.git?.writes_waiting_for_git;
  const patch = (url: string) =>
    request(app.callback())
      .patch('/api/v1/networks/evm:sepolia')
      .send({ rpc_urls: [url] });

  async function start(options: Parameters<typeof startStore>[1] = {}): Promise<void> {
    store = await startStore(root, options);
    app = createApp(store);
  }

  beforeEach(() => {
    root = makeConfigDir(standardFiles());
    initRepo(root);
  });
  afterEach(async () => {
    await store.close();
    removeDir(root);
  });

  it('waits while git holds the lock, then edits the file git wrote', async () => {
    await start();
    expect(waiting()).to.equal(0);
    writeFileSync(indexLock(), '');
    const answer = patch('https://after-git.example.com').then((r) => r);
    await until(store, () => waiting() === 1, 5000, 'the PATCH waiting for git');
    // "git" replaces the file (unlink, create) while it holds the lock, then lets go.
    const checkedOut = networkYaml({ rpc_urls: ['https://checked-out.example.com'], extra: 'symbol: CHECKED_OUT' });
    unlinkSync(sepolia());
    writeFileSync(sepolia(), checkedOut);
    rmSync(indexLock());
    const response = await answer;
    expect(response.status).to.equal(200);
    const onDisk = readFileSync(sepolia(), 'utf8');
    expect(onDisk)
      .to.include('symbol: CHECKED_OUT')
      .and.include('https://after-git.example.com')
      .and.not.include('https://checked-out.example.com');
    expect(waiting()).to.equal(0);
    expect(store.retryCounts()).to.include({ 'git-lock': 1, moved: 0 });
  });

  it('a git command that starts between the read and the rename makes the PATCH wait and read again', async () => {
    // The lock appears while the temp file is written: after the PATCH read the file and its lock
    // check, before its rename. Only the look just before the rename can see it.
    let lockOnce = true;
    const fs: DiskSteps = {
      ...realDisk,
      async writeNewDurable(file, data, mode) {
        await realDisk.writeNewDurable(file, data, mode);
        if (lockOnce) writeFileSync(indexLock(), '');
        lockOnce = false;
      },
    };
    await start({ fs });
    const before = readFileSync(sepolia(), 'utf8');
    const answer = patch('https://after-git.example.com').then((r) => r);
    await until(store, () => waiting() === 1, 5000, 'the PATCH waiting for git');
    expect(readFileSync(sepolia(), 'utf8'), 'renamed while git held its lock').to.equal(before);
    rmSync(indexLock());
    expect((await answer).status).to.equal(200);
    expect(readFileSync(sepolia(), 'utf8')).to.include('https://after-git.example.com');
    // The look before the rename saw git's lock: the attempt ended 'moved', the next one waited for git.
    expect(store.retryCounts()).to.include({ 'git-lock': 1, moved: 1 });
  });

  it('a lock git never lets go of: 503 LOCK_TIMEOUT after the wait, nothing written', async () => {
    await start({ lock: { staleMs: 2000, maxWaitMs: 300 } });
    const before = readFileSync(sepolia(), 'utf8');
    writeFileSync(indexLock(), '');
    const response = await patch('https://never.example.com').expect(503);
    expect(response.body).to.include({ success: false, code: 'LOCK_TIMEOUT' });
    expect(response.body.error).to.include('index.lock');
    expect(readFileSync(sepolia(), 'utf8')).to.equal(before);
    expect(waiting()).to.equal(0);
  });

  it("netcfg's own commits (GIT_COMMIT) hold the same lock and do not hold up its writes", async () => {
    await start({ gitCommit: true });
    const ids = ['evm:sepolia', 'evm:mainnet', 'solana:devnet'];
    const responses = await Promise.all(
      ids.flatMap((id) =>
        [1, 2, 3].map((n) =>
          request(app.callback())
            .patch(`/api/v1/networks/${id}`)
            .send({ rpc_urls: [`https://${n}.${id.replace(':', '-')}.example.com`] }),
        ),
      ),
    );
    expect(responses.map((r) => r.status)).to.deep.equal(Array(9).fill(200));
    await until(store, () => store.readiness().components.git?.pending_commits === 0, 10000, 'commits made');
    expect(Number(git(root, 'rev-list', '--count', 'HEAD'))).to.equal(10);
  });
});
