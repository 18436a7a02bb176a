/**
 * Git history of live changes, on a real repository: each PATCH is one commit of that file alone,
 * history pages through `git log`, and a commit that fails is reported and retried, never lost.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import type Koa from 'koa';
import { createApp } from '../../../src/http/app.js';
import { realDisk, type DiskSteps } from '../../../src/store/write/disk-steps.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { makeConfigDir, removeDir, standardFiles } from '../../helpers/fixtures.js';
import { git, initRepo } from '../../helpers/git-repo.js';
import { startStore } from '../../helpers/store.js';
import { networkOf } from '../../../src/store/network-record.js';

describe('store/work-tree (real repository)', () => {
  let repo: string;
  let root: string;
  let store: NetworkStore;
  let app: Koa;

  beforeEach(async () => {
    // The config folder is a sub-folder of the work tree, as in a real repository.
    repo = makeConfigDir();
    root = path.join(repo, 'config', 'networks');
    mkdirSync(root, { recursive: true });
    for (const [rel, text] of Object.entries(standardFiles())) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      execFileSync('sh', ['-c', 'cat > "$0"', path.join(root, rel)], { input: text });
    }
    initRepo(repo);
    store = await startStore(root, { gitCommit: true, gitAuthor: { name: 'Ops Bot', email: 'ops@example.com' } });
    app = createApp(store);
  });
  afterEach(async () => {
    await store.close();
    removeDir(repo);
  });

  const patch = (id: string, url: string) =>
    request(app.callback())
      .patch(`/api/v1/networks/${id}`)
      .send({ rpc_urls: [url] });

  it('each PATCH is one commit of that file alone, with the author and message', async () => {
    // An unrelated change in the work tree must not be swept into netcfg's commit.
    execFileSync('sh', ['-c', 'echo "# local edit" >> "$0"', path.join(root, 'evm/mainnet.yaml')]);
    await patch('evm:sepolia', 'https://one.example.com').expect(200);
    const log = git(repo, 'log', '--format=%an <%ae>|%s', '--name-only', '-1');
    expect(log).to.include('Ops Bot <ops@example.com>|netcfg: update rpc_urls of evm:sepolia');
    expect(
      log
        .trim()
        .split('\n')
        .filter((l) => l.includes('.yaml')),
    ).to.deep.equal(['config/networks/evm/sepolia.yaml']);
    expect(git(repo, 'status', '--porcelain'))
      .to.include('evm/mainnet.yaml')
      .and.not.include('sepolia');
    // git revert undoes the change.
    git(repo, '-c', 'user.name=x', '-c', 'user.email=x@x', 'revert', '--no-edit', 'HEAD');
    expect(git(repo, 'show', 'HEAD:config/networks/evm/sepolia.yaml')).to.not.include('one.example.com');
  });

  it("a PATCH holds its network's lock from its read through its commit", async () => {
    // Without GIT_COMMIT the write takes the lock for its own steps only (network-writer.test.ts).
    const folder = path.join(root, '.locks', 'evm~sepolia.lock');
    const lockedAtRead: boolean[] = [];
    const fs: DiskSteps = {
      ...realDisk,
      async readFile(file) {
        lockedAtRead.push(existsSync(folder));
        return realDisk.readFile(file);
      },
    };
    await store.close();
    store = await startStore(root, { gitCommit: true, gitAuthor: { name: 'Ops Bot', email: 'ops@example.com' }, fs });
    app = createApp(store);
    await patch('evm:sepolia', 'https://one.example.com').expect(200);
    expect(lockedAtRead).to.deep.equal([true]);
    expect(git(repo, 'log', '-1', '--format=%s')).to.equal('netcfg: update rpc_urls of evm:sepolia\n');
  });

  it('a no-op PATCH makes no commit', async () => {
    await patch('evm:sepolia', 'https://one.example.com').expect(200);
    const count = git(repo, 'rev-list', '--count', 'HEAD');
    await patch('evm:sepolia', 'https://one.example.com').expect(200);
    expect(git(repo, 'rev-list', '--count', 'HEAD')).to.equal(count);
  });

  it("history lists the file's commits newest first, paginated", async () => {
    for (let i = 1; i <= 3; i++) await patch('evm:sepolia', `https://v${i}.example.com`).expect(200);
    await patch('evm:mainnet', 'https://other.example.com').expect(200);
    const page1 = await request(app.callback()).get('/api/v1/networks/evm:sepolia/history?per_page=2').expect(200);
    expect(page1.body.pagination).to.deep.equal({ current_page: 1, per_page: 2, total_items: 4, total_pages: 2 });
    expect(page1.body.data.map((c: { message: string }) => c.message)).to.deep.equal([
      'netcfg: update rpc_urls of evm:sepolia',
      'netcfg: update rpc_urls of evm:sepolia',
    ]);
    expect(page1.body.data[0]).to.include({ author: 'Ops Bot', email: 'ops@example.com' });
    expect(page1.body.data[0].sha).to.match(/^[0-9a-f]{40}$/);
    expect(page1.headers.link).to.include('rel="next"');
    const page2 = await request(app.callback()).get('/networks/evm%3Asepolia/history?page=2&per_page=2').expect(200);
    expect(page2.body.data.map((c: { message: string }) => c.message)).to.deep.equal([
      'netcfg: update rpc_urls of evm:sepolia',
      'seed',
    ]);
    await request(app.callback()).get('/api/v1/networks/evm:nope/history').expect(404);
    await request(app.callback()).get('/api/v1/networks/evm:sepolia/history?per_page=0').expect(400);
  });

  it('a failed commit keeps the write, shows in readiness, and is retried', async () => {
    // Another git process takes the index just after the rename (a PATCH waits for one that
    // holds it before: git-index-lock.test.ts), so netcfg's commit finds it taken.
    const lock = path.join(repo, '.git', 'index.lock');
    let takeOnce = true;
    const fs: DiskSteps = {
      ...realDisk,
      async fsyncDir(dir) {
        await realDisk.fsyncDir(dir);
        if (takeOnce) writeFileSync(lock, '');
        takeOnce = false;
      },
    };
    await store.close();
    store = await startStore(root, { gitCommit: true, gitAuthor: { name: 'Ops Bot', email: 'ops@example.com' }, fs });
    app = createApp(store);
    await patch('evm:sepolia', 'https://kept.example.com').expect(200);
    expect(networkOf(store.get('evm:sepolia')).rpc_urls).to.deep.equal([
      { url: 'https://kept.example.com', weight: 100 },
    ]);
    const ready = await request(app.callback()).get('/api/v1/ready').expect(200);
    expect(ready.body.status).to.equal('degraded');
    expect(ready.body.components.git).to.include({ status: 'degraded', pending_commits: 1 });
    rmSync(lock);
    const deadline = Date.now() + 10_000;
    while (store.readiness().components.git?.pending_commits !== 0) {
      expect(Date.now(), 'retried within 10 s').to.be.below(deadline);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(git(repo, 'log', '-1', '--format=%s')).to.equal('netcfg: update rpc_urls of evm:sepolia\n');
    expect(store.readiness().status).to.equal('healthy');
  });

  it('history outside a git work tree is a 501; GIT_COMMIT there changes nothing', async () => {
    const plain = makeConfigDir(standardFiles());
    const other = await startStore(plain, { gitCommit: true });
    try {
      const res = await request(createApp(other).callback()).get('/api/v1/networks/evm:sepolia/history').expect(501);
      expect(res.body.code).to.equal('NOT_IMPLEMENTED');
      await request(createApp(other).callback())
        .patch('/api/v1/networks/evm:sepolia')
        .send({ rpc_urls: ['https://x.example.com'] })
        .expect(200);
      expect(existsSync(path.join(plain, '.git'))).to.equal(false);
    } finally {
      await other.close();
      removeDir(plain);
    }
  });
});
