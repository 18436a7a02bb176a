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

describe('store/history/network-versions: a network as of a commit (real repository)', () => {
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
    const res = await request(app.callback())
      .get(`/api/v1/networks/evm:sepolia/history/${second.slice(0, 7)}`)
      .expect(200);
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

  const cases: Array<{
    name: string;
    sha: (seed: string) => string;
    id?: string;
    status: number;
    code: string;
    message: RegExp;
  }> = [
    { name: 'not a commit id', sha: () => 'HEAD~1', status: 400, code: 'BAD_REQUEST', message: /not a commit id/ },
    {
      name: 'an option in disguise',
      sha: () => '--output=x',
      status: 400,
      code: 'BAD_REQUEST',
      message: /not a commit id/,
    },
    {
      name: 'no such commit',
      sha: () => 'deadbeefdeadbeef',
      status: 404,
      code: 'NETWORK_NOT_FOUND',
      message: /no commit deadbeefdeadbeef/,
    },
    {
      name: 'a network that had no file then',
      sha: (seed) => seed,
      id: 'evm:later',
      status: 404,
      code: 'NETWORK_NOT_FOUND',
      message: /did not change evm:later's file/,
    },
    {
      name: 'an id that is not one',
      sha: (seed) => seed,
      id: 'EVM:../x',
      status: 400,
      code: 'INVALID_ID',
      message: /./,
    },
  ];
  for (const c of cases) {
    it(`refused: ${c.name}`, async () => {
      const seed = git(repo, 'rev-parse', 'HEAD').trim();
      const res = await request(app.callback()).get(
        `/api/v1/networks/${encodeURIComponent(c.id ?? 'evm:sepolia')}/history/${encodeURIComponent(c.sha(seed))}`,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(c.status);
      expect(res.body.code).to.equal(c.code);
      expect(res.body.error).to.match(c.message);
    });
  }

  // Issue 41: an invalid version on either side blocked showing (409) and reverting the other; a
  // commit that did not touch the file answered 200 with equal versions; any size was read and parsed.
  const sides: Array<{
    name: string;
    before: string | null;
    after: string;
    network: 'valid' | RegExp;
    previous: 'valid' | RegExp | null;
  }> = [
    {
      name: 'a commit that fixed an invalid file',
      before: 'rpc_urls: [\n',
      after: networkYaml({ rpc_urls: ['https://fixed.example.com'] }),
      network: 'valid',
      previous: /evm\/sepolia\.yaml as of [0-9a-f]{7}\^ is not a valid network file \(\d+:\d+: /,
    },
    {
      name: 'a commit that broke the file',
      before: null,
      after: 'rpc_urls: [\n',
      network: /evm\/sepolia\.yaml as of [0-9a-f]{7} is not a valid network file \(\d+:\d+: /,
      previous: 'valid',
    },
    {
      name: 'a commit that made the file larger than 1 MiB',
      before: null,
      after: `${networkYaml()}# ${'x'.repeat(1024 * 1024)}\n`,
      network: /larger than 1048576 bytes/,
      previous: 'valid',
    },
  ];
  for (const c of sides) {
    it(`${c.name}: 200, the valid side shown, the other null with its problem`, async () => {
      if (c.before !== null) {
        writeFileSync(path.join(root, 'evm/sepolia.yaml'), c.before);
        commit('before');
      }
      writeFileSync(path.join(root, 'evm/sepolia.yaml'), c.after);
      const sha = commit('after');
      const { body } = await request(app.callback()).get(`/api/v1/networks/evm:sepolia/history/${sha}`).expect(200);
      for (const [side, want] of [
        ['network', c.network],
        ['previous', c.previous],
      ] as const) {
        if (want === 'valid') expect(body.data[side], side).to.include({ id: 'evm:sepolia' });
        else {
          expect(body.data[side], side).to.equal(null);
          expect(body.data[`${side}_problem`], side).to.match(want as RegExp);
        }
      }
    });
  }

  it('a commit that did not change the file: 404, not two equal versions', async () => {
    writeFileSync(path.join(root, 'evm/mainnet.yaml'), networkYaml({ rpc_urls: ['https://other.example.com'] }));
    const other = commit('another network');
    const res = await request(app.callback()).get(`/api/v1/networks/evm:sepolia/history/${other}`).expect(404);
    expect(res.body.code).to.equal('NETWORK_NOT_FOUND');
    expect(res.body.error).to.include("did not change evm:sepolia's file");
  });

  it('outside a git work tree: 501', async () => {
    const plain = makeConfigDir(standardFiles());
    const other = await startStore(plain);
    try {
      const res = await request(createApp(other).callback())
        .get('/api/v1/networks/evm:sepolia/history/abcdef0')
        .expect(501);
      expect(res.body.code).to.equal('NOT_IMPLEMENTED');
    } finally {
      await other.close();
      removeDir(plain);
    }
  });
});
