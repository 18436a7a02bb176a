/**
 * Readiness as orchestrators and people see it (GET /api/v1/ready), and what the first load of a
 * folder serves and reports: every rule about which files are networks lives in these rows.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../src/http/app.js';
import { etagOf } from '../../src/store/validation/network-file.js';
import { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../helpers/fixtures.js';
import { openReadApp, type ReadApp } from '../helpers/read-http.js';
import { startStore } from '../helpers/store.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const BAD_SYNTAX = 'rpc_urls:\n  - https://a.example.com\nchain_id: a: b\n';
const BAD_SCHEMA = '# c\nrpc_urls:\n  - https://a.example.com\n  - url: https://b.example.com\n    weight: 101\n';

describe('readiness and the first load', () => {
  let fixture: ReadApp | undefined;
  const roots: string[] = [];
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
    for (const root of roots.splice(0)) removeDir(root);
  });

  describe('GET /api/v1/health and /api/v1/ready', () => {
    it('health is 200 text "OK", even before the store has started', async () => {
      const root = makeConfigDir(standardFiles());
      roots.push(root);
      const res = await request(createApp(new NetworkStore({ root })).callback()).get('/api/v1/health');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      expect(res.text).to.equal('OK');
    });

    it('ready is 503 before the first load is done (store not started)', async () => {
      const root = makeConfigDir(standardFiles());
      roots.push(root);
      const res = await request(createApp(new NetworkStore({ root })).callback()).get('/api/v1/ready');
      expect(res.status).to.equal(503);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.body).to.include({ ready: false, status: 'unhealthy' });
      expect(res.body.reason).to.match(/loading/);
      expect(res.body.components.index).to.include({ networks: 0, loaded_at: null });
    });

    it('ready is 503 when the config folder does not exist', async () => {
      const root = path.join(makeConfigDir(), 'missing');
      roots.push(path.dirname(root));
      const store = await startStore(root);
      try {
        const res = await request(createApp(store).callback()).get('/api/v1/ready');
        expect(res.status).to.equal(503);
        expect(res.body).to.include({ ready: false, status: 'unhealthy' });
        expect(res.body.reason).to.contain('CONFIG_DIR').and.contain('ENOENT');
      } finally {
        await store.close();
      }
    });

    it('ready turns 503 when the config folder is removed after the start', async () => {
      fixture = await openReadApp();
      expect((await fixture.agent.get('/api/v1/ready')).status).to.equal(200);
      rmSync(fixture.root, { recursive: true, force: true });
      const res = await fixture.agent.get('/api/v1/ready');
      expect(res.status).to.equal(503);
      expect(res.body.components.index.status).to.equal('unhealthy');
    });

    it('ready is 200 "healthy" with the documented shape', async () => {
      fixture = await openReadApp();
      const res = await fixture.agent.get('/api/v1/ready');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      const body = res.body;
      expect(body).to.include({ ready: true, status: 'healthy' });
      expect(body).to.not.have.property('reason');
      expect(body.timestamp).to.match(ISO);
      expect(body.components.index).to.include({ status: 'healthy', networks: 3 });
      expect(body.components.index.invalid_files).to.deep.equal([]);
      expect(body.components.index.loaded_at).to.match(ISO);
      expect(body.components.watcher).to.include({ status: 'healthy', last_event_at: null });
    });

    it('ready is 200 "degraded" listing each invalid file with path, line, column and error', async () => {
      fixture = await openReadApp({ ...standardFiles(), 'evm/broken.yaml': BAD_SYNTAX, 'evm/wrong.yaml': BAD_SCHEMA });
      const res = await fixture.agent.get('/api/v1/ready');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ ready: true, status: 'degraded' });
      expect(res.body.reason).to.match(/2 problem/);
      expect(res.body.components.index).to.include({ status: 'degraded', networks: 3 });
      const invalid = res.body.components.index.invalid_files as Array<Record<string, unknown>>;
      for (const f of invalid) expect(Object.keys(f).sort()).to.deep.equal(['column', 'error', 'line', 'path']);
      expect(invalid.map((f) => [f.path, f.line, f.column])).to.deep.equal([
        ['evm/broken.yaml', 3, 11],
        ['evm/wrong.yaml', 5, 13],
      ]);
      expect(invalid[1]?.error).to.match(/weight must be between 0 and 100/);
    });
  });

  describe('which files are networks (first load)', () => {
    async function load(
      files: Record<string, string>,
    ): Promise<{ served: string[]; invalid: Array<{ path: string; error: string }> }> {
      fixture = await openReadApp(files);
      const list = await fixture.agent.get('/api/v1/networks?per_page=100');
      const ready = await fixture.agent.get('/api/v1/ready');
      return {
        served: list.body.data.map((n: { id: string }) => n.id),
        invalid: ready.body.components.index.invalid_files,
      };
    }

    it('reads .yml files as well as .yaml', async () => {
      const { served, invalid } = await load({ 'evm/sepolia.yml': networkYaml(), 'solana/devnet.yaml': networkYaml() });
      expect(served).to.deep.equal(['evm:sepolia', 'solana:devnet']);
      expect(invalid).to.deep.equal([]);
    });

    it('reports files whose family or name is not an id part, or that are not network files, and never serves them', async () => {
      const bad = ['EVM/sepolia.yaml', 'evm/Bad Name.yaml', 'evm/notes.txt', 'README.md', 'evm/nested/deep.yaml'];
      const files: Record<string, string> = { 'evm/sepolia.yaml': networkYaml() };
      for (const rel of bad) files[rel] = networkYaml();
      const { served, invalid } = await load(files);
      expect(served).to.deep.equal(['evm:sepolia']);
      // The nested folder is reported as a folder: its contents are never looked at.
      expect(invalid.map((f) => f.path).sort()).to.deep.equal([
        'EVM/sepolia.yaml',
        'README.md',
        'evm/Bad Name.yaml',
        'evm/nested',
        'evm/notes.txt',
      ]);
    });

    it('refuses a file that sets id, name or network_type to other values', async () => {
      const { served, invalid } = await load({
        'evm/a.yaml': networkYaml({ extra: 'id: evm:b' }),
        'evm/c.yaml': networkYaml({ extra: 'name: d' }),
        'evm/e.yaml': networkYaml({ extra: 'network_type: solana' }),
        'evm/ok.yaml': networkYaml({ extra: 'id: evm:ok\nname: ok\nnetwork_type: evm' }),
      });
      expect(served).to.deep.equal(['evm:ok']);
      expect(invalid.map((f) => f.path)).to.deep.equal(['evm/a.yaml', 'evm/c.yaml', 'evm/e.yaml']);
    });

    it('one bad file never hides the good ones, and a never-valid file is not served', async () => {
      const { served } = await load({ ...standardFiles(), 'evm/broken.yaml': BAD_SYNTAX, 'evm/empty.yaml': '' });
      expect(served).to.deep.equal(['evm:mainnet', 'evm:sepolia', 'solana:devnet']);
      const res = await fixture!.agent.get('/api/v1/networks/evm:broken');
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('NETWORK_NOT_FOUND');
    });

    it('dot-files and dot-folders (temp files, .locks/, .git/) are never networks and never reported', async () => {
      const { served, invalid } = await load({
        ...standardFiles(),
        'evm/.sepolia.yaml.123.tmp': BAD_SYNTAX,
        'evm/.hidden.yaml': networkYaml(),
        '.locks/evm/sepolia.lock': 'x',
        '.git/HEAD': 'ref: refs/heads/main\n',
        '.gitignore': '*.tmp\n',
      });
      expect(served).to.deep.equal(['evm:mainnet', 'evm:sepolia', 'solana:devnet']);
      expect(invalid).to.deep.equal([]);
    });

    it('a .yaml/.yml pair: the .yaml is served and the .yml reported as a duplicate', async () => {
      const yaml = networkYaml({ extra: 'symbol: YAML' });
      const { served, invalid } = await load({
        'evm/sepolia.yaml': yaml,
        'evm/sepolia.yml': networkYaml({ extra: 'symbol: YML' }),
      });
      expect(served).to.deep.equal(['evm:sepolia']);
      const one = await fixture!.agent.get('/api/v1/networks/evm:sepolia');
      expect(one.body.data.symbol).to.equal('YAML');
      expect(one.headers.etag).to.equal(etagOf(yaml));
      expect(invalid).to.have.length(1);
      expect(invalid[0]).to.include({ path: 'evm/sepolia.yml' });
      expect(invalid[0]?.error).to.match(/duplicate/);
    });
  });
});
