/**
 * RPC_PROBE_INTERVAL_MS against fake JSON-RPC endpoints on loopback, through the app on a real port:
 * the rpc-health route (pending, then what each URL answered), readiness' `rpc` component, an
 * `rpc_health` event when a URL's status changes, and the networks spread over the interval.
 */
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../src/http/app.js';
import { LiveProber, jobsOf } from '../../src/probe/live-prober.js';
import { DEFAULT_PROBER, Prober } from '../../src/probe/prober.js';
import { networkOf } from '../../src/store/network-record.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startFakeRpc, type Answer, type FakeRpc } from '../helpers/fake-rpc.js';
import { openSse } from '../helpers/sse.js';
import { startStore } from '../helpers/store.js';
import { listenApp } from '../helpers/write-support.js';

const SEPOLIA: Record<string, Answer> = { eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } };

describe('probe/live-prober: RPC_PROBE_INTERVAL_MS (fake endpoints on loopback)', function () {
  this.timeout(20_000);
  let root: string;
  let store: NetworkStore;
  let live: LiveProber;
  const fakes: FakeRpc[] = [];
  const fake = async (answers: Record<string, Answer>): Promise<FakeRpc> => {
    const f = await startFakeRpc(answers);
    fakes.push(f);
    return f;
  };
  const liveOver = (intervalMs: number): LiveProber =>
    new LiveProber(
      new Prober({ ...DEFAULT_PROBER, timeoutMs: 500 }),
      () => jobsOf(store.ids().map((id) => ({ id, fields: networkOf(store.get(id)) }))),
      intervalMs,
    );
  afterEach(async () => {
    await live?.close();
    await store?.close();
    removeDir(root);
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  it('rpc-health is pending, then what each URL answered; readiness counts by status; a URL that changes chain is an rpc_health event', async () => {
    const answers: Record<string, Answer> = { ...SEPOLIA };
    const flaky = await fake(answers);
    const good = await fake(SEPOLIA);
    root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: [good.url, flaky.url] }) });
    store = await startStore(root);
    live = liveOver(300);
    const app = await listenApp(createApp(store, { rpcHealth: live }));
    try {
      const pending = await request(app.url).get('/api/v1/networks/evm:sepolia/rpc-health');
      expect(pending.status).to.equal(200);
      expect(pending.body.data.map((u: { status: string }) => u.status)).to.deep.equal(['pending', 'pending']);
      const sse = await openSse(`${app.url}/api/v1/networks/events`);
      try {
        live.start();
        const first = await sse.waitFor(2, 5000); // each URL: none -> ok
        expect(first.map((e) => [e.event, JSON.parse(e.data).status])).to.deep.equal([
          ['rpc_health', 'ok'],
          ['rpc_health', 'ok'],
        ]);
        const health = await request(app.url).get('/api/v1/networks/evm:sepolia/rpc-health');
        expect(health.body.data[0]).to.include({ url: good.url, status: 'ok', chain_id: 11155111, head: 100, lag: 0 });
        expect(health.body.data[0].latency_ms).to.be.a('number');
        const ready = await request(app.url).get('/api/v1/ready');
        expect(ready.status).to.equal(200);
        expect(ready.body.components.rpc).to.include({ status: 'healthy', ok: 2, wrong_chain: 0 });
        const all = await request(app.url).get('/api/v1/rpc-health').expect(200);
        expect(all.body.data).to.deep.equal([{ id: 'evm:sepolia', counts: { ok: 2 } }]);

        answers.eth_chainId = { result: '0x1' }; // someone repointed the endpoint at mainnet
        const [, , changed] = await sse.waitFor(3, 5000);
        expect(changed?.event).to.equal('rpc_health');
        expect(JSON.parse(changed?.data ?? '{}')).to.deep.equal({
          id: 'evm:sepolia',
          index: 1,
          url: flaky.url,
          status: 'wrong_chain',
          previous: 'ok',
        });
        const after = await request(app.url).get('/api/v1/ready');
        expect(after.status, 'never 503 for an RPC URL').to.equal(200);
        expect(after.body.components.rpc).to.include({ status: 'degraded', ok: 1, wrong_chain: 1 });
      } finally {
        sse.close();
      }
      expect((await request(app.url).get('/api/v1/networks/evm:nope/rpc-health')).status).to.equal(404);
    } finally {
      await app.close();
    }
  });

  it('rpc-health and rpc_health events show each URL redacted (user-info, key-like path segment, query), with its index in rpc_urls', async () => {
    const f = await fake(SEPOLIA);
    const { port } = new URL(f.url);
    const secrets = ['s3cretpass', 'abcdef0123456789abcdef', 'topsecret'];
    const keyed = `http://user:${secrets[0]}@127.0.0.1:${port}/v2/${secrets[1]}?apikey=${secrets[2]}`;
    const shown = `http://***@127.0.0.1:${port}/v2/***?apikey=***`;
    // A disabled URL first: the probed URL is the first one probed but rpc_urls[1].
    root = makeConfigDir({
      'evm/sepolia.yaml': networkYaml({ rpc_urls: [{ url: 'https://disabled.example.com', weight: 0 }, keyed] }),
    });
    store = await startStore(root);
    live = liveOver(300);
    const app = await listenApp(createApp(store, { rpcHealth: live }));
    const sse = await openSse(`${app.url}/api/v1/networks/events`);
    try {
      live.start();
      const [event] = await sse.waitFor(1, 5000);
      expect(event?.event).to.equal('rpc_health');
      expect(JSON.parse(event?.data ?? '{}')).to.deep.equal({
        id: 'evm:sepolia',
        index: 1,
        url: shown,
        status: 'ok',
        previous: null,
      });
      const health = await request(app.url).get('/api/v1/networks/evm:sepolia/rpc-health').expect(200);
      expect(
        health.body.data.map((h: { index: number; url: string; status: string }) => [h.index, h.url, h.status]),
      ).to.deep.equal([
        [0, 'https://disabled.example.com/', 'pending'],
        [1, shown, 'ok'],
      ]);
      const all = await request(app.url).get('/api/v1/rpc-health').expect(200);
      for (const text of [event?.data ?? '', health.text, all.text])
        for (const secret of secrets) expect(text).to.not.include(secret);
    } finally {
      sse.close();
      await app.close();
    }
  });

  it('the networks are spread over the interval, not probed as a burst; without the option there is no route', async () => {
    const f = await fake(SEPOLIA);
    const files = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`evm/n${i}.yaml`, networkYaml({ rpc_urls: [`${f.url}n${i}`] })]),
    );
    root = makeConfigDir(files);
    store = await startStore(root);
    live = liveOver(1000);
    const firstCalls: number[] = [];
    const counted = new Promise<void>((resolve) => {
      const off = live.onChange(() => {
        firstCalls.push(performance.now());
        if (firstCalls.length === 5) {
          off();
          resolve();
        }
      });
    });
    live.start();
    await counted;
    // Network k waits k/5 of the interval: the first round spans at least 4/5 of it (timers never fire early).
    expect(firstCalls[4]! - firstCalls[0]!).to.be.at.least(750);
    expect((await request(createApp(store).callback()).get('/api/v1/networks/evm:n0/rpc-health')).status).to.equal(404);
    expect((await request(createApp(store).callback()).get('/api/v1/rpc-health')).status).to.equal(404);
  });

  it('thousands of networks cost one timer at a time: no listener-leak warning however many networks', async () => {
    const f = await fake(SEPOLIA);
    const files = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`evm/n${i}.yaml`, networkYaml({ rpc_urls: [`${f.url}n${i}`] })]),
    );
    root = makeConfigDir(files);
    store = await startStore(root);
    live = liveOver(300);
    const warnings: string[] = [];
    const onWarning = (w: Error): number => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const seen = new Set<string>();
      await new Promise<void>((resolve) => {
        live.onChange((c) => {
          seen.add(c.id);
          if (seen.size === 30) resolve();
        });
        live.start();
      });
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).to.deep.equal([]);
  });
});
