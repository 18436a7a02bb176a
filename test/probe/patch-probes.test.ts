/**
 * RPC_PROBE_ON_PATCH's bounds and order, with fake JSON-RPC endpoints on loopback and a real store
 * on a real folder: a PATCH that can be refused without the network (unknown network, stale
 * If-Match) asks no URL, and a PATCH's probes are bounded per PATCH, so they do not queue behind
 * other PATCHes' silent URLs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../src/http/app.js';
import { DEFAULT_PROBER, Prober } from '../../src/probe/prober.js';
import { urlCheckOf } from '../../src/probe/url-check.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { etagOf } from '../../src/store/validation/network-file.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startFakeRpc, type Answer, type FakeRpc } from '../helpers/fake-rpc.js';
import { startStore, until } from '../helpers/store.js';
import { expectErrorEnvelope, listenApp } from '../helpers/write-support.js';
import { allowEvery } from '../helpers/secret-lookup.js';

const SEPOLIA: Record<string, Answer> = { eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } };
const SILENT: Record<string, Answer> = { eth_chainId: 'hang', eth_blockNumber: 'hang' };
/** PATCH_PROBES.each, written out so this file also runs against the code before it. */
const EACH = 8;

describe('probe/patch-probes: what a PATCH asks, and when (RPC_PROBE_ON_PATCH, fake endpoints on loopback)', () => {
  let root: string;
  let store: NetworkStore | undefined;
  const fakes: FakeRpc[] = [];
  const fake = async (answers: Record<string, Answer>, delayMs = 0): Promise<FakeRpc> => {
    const f = await startFakeRpc(answers, delayMs);
    fakes.push(f);
    return f;
  };
  /** A store over `networks` (evm names) probing PATCHes with a deadline no test reaches: a silent URL stays silent. */
  const open = async (networks: string[]): Promise<NetworkStore> => {
    root = makeConfigDir(Object.fromEntries(networks.map((n) => [`evm/${n}.yaml`, networkYaml()])));
    store = await startStore(root, {
      urlCheck: urlCheckOf(new Prober({ ...DEFAULT_PROBER, timeoutMs: 60_000 }), 'reject'),
    });
    return store;
  };
  const file = (name: string): string => readFileSync(path.join(root, 'evm', `${name}.yaml`), 'utf8');
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((f) => f.close()));
    await store?.close();
    store = undefined;
    removeDir(root);
  });

  describe('refused without the network: the fake endpoint gets no request', () => {
    const rows: Array<{
      name: string;
      id: string;
      ifMatch?: 'stale' | 'current' | '*';
      status: number;
      code?: string;
      requests: number;
    }> = [
      { name: 'an unknown network', id: 'evm:nowhere', status: 404, code: 'NETWORK_NOT_FOUND', requests: 0 },
      {
        name: 'a stale If-Match',
        id: 'evm:sepolia',
        ifMatch: 'stale',
        status: 412,
        code: 'PRECONDITION_FAILED',
        requests: 0,
      },
      {
        name: 'the current ETag in If-Match (asked, then written)',
        id: 'evm:sepolia',
        ifMatch: 'current',
        status: 200,
        requests: 1,
      },
      { name: 'If-Match: * (asked, then written)', id: 'evm:sepolia', ifMatch: '*', status: 200, requests: 1 },
    ];
    for (const row of rows) {
      it(`${row.name} -> ${row.status}, ${row.requests} request(s) to the URL`, async () => {
        const s = await open(['sepolia']);
        const rpc = await fake(SEPOLIA);
        const before = file('sepolia');
        const etag =
          row.ifMatch === 'current' ? s.get('evm:sepolia').etag : row.ifMatch === 'stale' ? '"c3RhbGU"' : row.ifMatch;
        const patch = request(createApp(s).callback()).patch(`/api/v1/networks/${row.id}`);
        const res = await (etag === undefined ? patch : patch.set('If-Match', etag)).send({ rpc_urls: [rpc.url] });
        if (row.code) {
          expectErrorEnvelope(res, row.status, row.code);
          expect(file('sepolia')).to.equal(before);
        } else {
          expect(res.status, res.text).to.equal(row.status);
        }
        if (row.status === 412) expect(res.headers.etag).to.equal(s.get('evm:sepolia').etag);
        expect(rpc.requests).to.equal(row.requests);
      });
    }
  });

  it(
    'a file turned invalid (its last good version served): If-Match with the ETag of its bytes is judged ' +
      'by the writer, 409, not 412 against the version served',
    async () => {
      const s = await open(['sepolia']);
      const rpc = await fake(SEPOLIA);
      const broken = 'rpc_urls: [\n';
      writeFileSync(path.join(root, 'evm', 'sepolia.yaml'), broken);
      await until(s, () => s.readiness().components.index.invalid_files.length > 0, 5000, 'the broken file reported');
      const res = await request(createApp(s).callback())
        .patch('/api/v1/networks/evm:sepolia')
        .set('If-Match', etagOf(broken))
        .send({ rpc_urls: [rpc.url] });
      expectErrorEnvelope(res, 409, 'FILE_INVALID');
      expect(file('sepolia')).to.equal(broken);
    },
  );

  it("a PATCH whose URL answers gets its probe in while six other PATCHes' 36 silent URLs (more than 32) hang", async () => {
    const s = await open(['sepolia', 'n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
    const app = await listenApp(createApp(s));
    try {
      const silent = await fake(SILENT);
      const fast = await fake(SEPOLIA);
      const hanging = Array.from({ length: 6 }, (_, k) =>
        request(app.url)
          .patch(`/api/v1/networks/evm:n${k}`)
          .send({ rpc_urls: Array.from({ length: 6 }, (_, i) => `${silent.url}n${k}/${i}`) })
          .then((res) => res),
      );
      await silent.requestsReached(32, 10_000); // every slot the prober has in all
      const answered = request(app.url)
        .patch('/api/v1/networks/evm:sepolia')
        .send({ rpc_urls: [fast.url] })
        .then((res) => res);
      await fast.requestsReached(1, 5000);
      expect(silent.answered, 'no silent request answered meanwhile').to.equal(0);
      expect((await answered).status).to.equal(200);
      expect(silent.requests, "each silent PATCH's six URLs all in flight").to.equal(36);
      await silent.close(); // the silent probes end as unreachable, which does not refuse a PATCH
      for (const res of await Promise.all(hanging)) expect(res.status, res.text).to.equal(200);
    } finally {
      await app.close();
    }
  });

  for (const [mode, status] of [
    ['reject', 400],
    ['warn', 200],
  ] as const) {
    it(`a reference in a PATCH is asked at its value; ${mode}: ${status}, and the key is in no answer`, async () => {
      root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml() });
      const mainnet = await fake({ eth_chainId: { result: '0x1' }, eth_blockNumber: { result: '0x64' } });
      const value = `${mainnet.url}v2/Kx9aQ2`;
      store = await startStore(root, {
        policy: { blockPrivate: false, allowedHosts: [], secrets: allowEvery({ WRONG_URL: value }) },
        urlCheck: urlCheckOf(new Prober({ ...DEFAULT_PROBER, timeoutMs: 60_000 }), mode),
      });
      const res = await request(createApp(store).callback())
        .patch('/api/v1/networks/evm:sepolia')
        .send({ rpc_urls: [{ type: 'env', value: 'WRONG_URL' }] });
      expect(mainnet.requests, 'the value was asked').to.be.greaterThan(0);
      expect(res.status, res.text).to.equal(status);
      expect(res.text)
        .to.include(mode === 'reject' ? 'serves another chain' : `${mainnet.url}v2/***`)
        .and.not.include('Kx9aQ2');
    });
  }

  it(`one PATCH has at most ${EACH} calls in flight`, async () => {
    const s = await open(['sepolia']);
    const slow = await fake(SEPOLIA, 50);
    const urls = Array.from({ length: 20 }, (_, i) => `${slow.url}u${i}`);
    const res = await request(createApp(s).callback()).patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: urls });
    expect(res.status, res.text).to.equal(200);
    expect(slow.requests).to.equal(20);
    expect(slow.maxInFlight).to.be.within(1, EACH);
  });
});
