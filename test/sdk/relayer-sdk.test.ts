/**
 * The OpenZeppelin Relayer SDK (the client relayer operators already use) against a real netcfg
 * process with an API key: list, get, health, readiness, and an update read back.
 * Needs the built server: npx tsc -p tsconfig.build.json.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Configuration, HealthApi, NetworksApi, type RpcConfig } from '@openzeppelin/relayer-sdk';
import { expect } from 'chai';
import type { ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startWriteChild } from '../helpers/write-child.js';
import { sha256Etag } from '../helpers/write-support.js';

const KEY = 'sdk-test-key-0123456789abcdef0123456789';

interface NetworkData {
  id: string;
  network_type: string;
  name: string;
  rpc_urls: RpcConfig[];
}

describe('sdk: @openzeppelin/relayer-sdk against netcfg', function () {
  this.timeout(30_000);
  let root: string;
  let server: ChildServer | undefined;
  let cfg: Configuration;
  before(async () => {
    root = makeConfigDir(standardFiles());
    server = await startWriteChild({ CONFIG_DIR: root, API_KEY: KEY });
    cfg = new Configuration({ basePath: server.url, accessToken: KEY });
  });
  after(async () => {
    await server?.stop();
    removeDir(root);
  });

  it('NetworksApi.listNetworks(1, 10) lists every network with pagination', async () => {
    const res = await new NetworksApi(cfg).listNetworks(1, 10);
    expect(res.status).to.equal(200);
    expect(res.data.success).to.equal(true);
    const ids = (res.data.data as unknown as NetworkData[]).map((n) => n.id);
    expect(ids).to.deep.equal(['evm:mainnet', 'evm:sepolia', 'solana:devnet']);
    expect(res.data.pagination).to.deep.equal({ current_page: 1, per_page: 10, total_items: 3, total_pages: 1 });
  });

  it('NetworksApi.getNetwork("evm:sepolia") returns the network with weighted rpc_urls', async () => {
    const res = await new NetworksApi(cfg).getNetwork('evm:sepolia');
    expect(res.status).to.equal(200);
    const data = res.data.data as unknown as NetworkData;
    expect(data).to.deep.include({ id: 'evm:sepolia', network_type: 'evm', name: 'sepolia' });
    expect(data.rpc_urls).to.deep.equal([
      { url: 'https://rpc.example.com', weight: 100 },
      { url: 'https://backup.example.com', weight: 30 },
    ]);
  });

  it('HealthApi.health() and .readiness()', async () => {
    const health = new HealthApi(cfg);
    const live = await health.health();
    expect(live.status).to.equal(200);
    expect(live.data).to.equal('OK');
    let ready = await health.readiness();
    expect(ready.status).to.equal(200);
    expect(ready.data.ready).to.equal(true);
    // Ready as soon as the index is loaded; "degraded" until the watcher's first walk is done.
    const deadline = Date.now() + 10_000;
    while (ready.data.status !== 'healthy' && Date.now() < deadline) {
      expect(ready.data.status).to.equal('degraded');
      await new Promise((r) => setTimeout(r, 50));
      ready = await health.readiness();
    }
    expect(ready.data.status).to.equal('healthy');
  });

  it('NetworksApi.updateNetwork writes plain and weighted entries, and getNetwork reads them back', async () => {
    const api = new NetworksApi(cfg);
    const res = await api.updateNetwork('evm:sepolia', {
      rpc_urls: ['https://plain.example.com', { url: 'https://w.example.com', weight: 25 }],
    });
    expect(res.status).to.equal(200);
    const expected = [
      { url: 'https://plain.example.com', weight: 100 },
      { url: 'https://w.example.com', weight: 25 },
    ];
    expect((res.data.data as unknown as NetworkData).rpc_urls).to.deep.equal(expected);
    const file = readFileSync(path.join(root, 'evm', 'sepolia.yaml'), 'utf8');
    expect(res.headers.etag).to.equal(sha256Etag(file));
    expect(file).to.match(/^ *- https:\/\/plain\.example\.com$/m);
    const back = await api.getNetwork('evm:sepolia');
    expect((back.data.data as unknown as NetworkData).rpc_urls).to.deep.equal(expected);
    expect(back.headers.etag).to.equal(res.headers.etag);
  });

  it('a wrong API key is refused with 401 in the error envelope', async () => {
    const wrong = new Configuration({ basePath: server!.url, accessToken: 'x'.repeat(40) });
    const err = await new NetworksApi(wrong).getNetwork('evm:sepolia').then(
      () => null,
      (e: { response?: { status: number; data: unknown } }) => e,
    );
    expect(err?.response?.status).to.equal(401);
    expect(err?.response?.data).to.deep.include({ success: false, data: null, code: 'UNAUTHORIZED' });
  });
});
