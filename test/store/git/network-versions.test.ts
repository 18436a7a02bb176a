/**
 * GET /networks/{id}/history/{sha}: the network as of a commit and just before it, read from git's
 * objects on a real repository whose config folder is a sub-folder of the work tree.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import type Koa from 'koa';
import { createApp } from '../../../src/http/app.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../../helpers/fixtures.js';
import { git, initRepo } from '../../helpers/git-repo.js';
import { startStore } from '../../helpers/store.js';

describe('store/git/network-versions: a network as of a commit (real repository)', () => {
  let repo: string;
  let root: string;
  let store: NetworkStore;
  let app: Koa;
  const commit = (message: string): string => {
    git(repo, 'add', '-A');
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', message);
    return git(repo, 'rev-parse', 'HEAD').trim();
  };

  beforeEach(async () => {
    repo = makeConfigDir();
    root = path.join(repo, 'config', 'networks');
    for (const [rel, text] of Object.entries(standardFiles())) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
    initRepo(repo);
    store = await startStore(root, { gitCommit: true });
    app = createApp(store);
  });
  afterEach(async () => {
    await store.close();
    removeDir(repo);
  });

  it('the network at the commit and just before it; a commit that created the file has no previous', async () => {
    const seed = git(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(root, 'evm/sepolia.yaml'), networkYaml({ rpc_urls: ['https://v2.example.com'] }));
    const second = commit('v2');
    const res = await request(app.callback()).get(`/api/v1/networks/evm:sepolia/history/${second.slice(0, 7)}`).expect(200);
    expect(res.body.data.sha).to.equal(second);
    expect(res.body.data.network).to.include({ id: 'evm:sepolia', chain_id: 11155111 });
    expect(res.body.data.network.rpc_urls).to.deep.equal([{ url: 'https://v2.example.com', weight: 100 }]);
    expect(res.body.data.previous.rpc_urls).to.deep.equal([
      { url: 'https://rpc.example.com', weight: 100 },
      { url: 'https://backup.example.com', weight: 30 },
    ]);
    const first = await request(app.callback()).get(`/networks/evm%3Asepolia/history/${seed}`).expect(200);
    expect(first.body.data.previous).to.equal(null);
    expect(first.body.data.network.rpc_urls).to.have.length(2);
  });

  const cases: Array<{ name: string; sha: (seed: string) => string; id?: string; status: number; code: string; message: RegExp }> = [
    { name: 'not a commit id', sha: () => 'HEAD~1', status: 400, code: 'BAD_REQUEST', message: /not a commit id/ },
    { name: 'an option in disguise', sha: () => '--output=x', status: 400, code: 'BAD_REQUEST', message: /not a commit id/ },
    { name: 'no such commit', sha: () => 'deadbeefdeadbeef', status: 404, code: 'NETWORK_NOT_FOUND', message: /no commit deadbeefdeadbeef/ },
    { name: 'a network that had no file then', sha: (seed) => seed, id: 'evm:later', status: 404, code: 'NETWORK_NOT_FOUND', message: /evm:later has no file at commit/ },
    { name: 'an id that is not one', sha: (seed) => seed, id: 'EVM:../x', status: 400, code: 'INVALID_ID', message: /./ },
  ];
  for (const c of cases) {
    it(`refused: ${c.name}`, async () => {
      const seed = git(repo, 'rev-parse', 'HEAD').trim();
      const res = await request(app.callback()).get(`/api/v1/networks/${encodeURIComponent(c.id ?? 'evm:sepolia')}/history/${encodeURIComponent(c.sha(seed))}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(c.status);
      expect(res.body.code).to.equal(c.code);
      expect(res.body.error).to.match(c.message);
    });
  }

  it('a version whose file was invalid then is a 409 naming its line and column, not a 500', async () => {
    writeFileSync(path.join(root, 'evm/sepolia.yaml'), 'rpc_urls: [\n');
    const bad = commit('broken');
    const res = await request(app.callback()).get(`/api/v1/networks/evm:sepolia/history/${bad}`).expect(409);
    expect(res.body.code).to.equal('FILE_INVALID');
    expect(res.body.error).to.match(/evm\/sepolia\.yaml as of [0-9a-f]{7} is not a valid network file \(\d+:\d+: /);
  });

  it('outside a git work tree: 501', async () => {
    const plain = makeConfigDir(standardFiles());
    const other = await startStore(plain);
    try {
      const res = await request(createApp(other).callback()).get('/api/v1/networks/evm:sepolia/history/abcdef0').expect(501);
      expect(res.body.code).to.equal('NOT_IMPLEMENTED');
    } finally {
      await other.close();
      removeDir(plain);
    }
  });
});
