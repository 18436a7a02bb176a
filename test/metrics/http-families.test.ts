/**
 * HTTP requests as the metrics count them, through the app on a real loopback port: a table of
 * requests, each with the route, method and status its series must carry. The route is the
 * template (the bare alias counted as its /api/v1 route), never the path as sent: any number of
 * unknown paths is one `unmatched` series, so what a client sends cannot grow the output.
 */
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { Metrics } from '../../src/metrics/metrics.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { samplesOf, valueOf } from '../helpers/exposition.js';
import { startStore } from '../helpers/store.js';
import { listenApp } from '../helpers/write-support.js';

const KEY = 'k'.repeat(40);

interface Case {
  name: string;
  requests: Array<{ method: string; path: string; body?: string; key?: boolean }>;
  series: { route: string; method: string; status: string };
  count: number;
}

const CASES: Case[] = [
  {
    name: 'one network',
    requests: [{ method: 'GET', path: '/api/v1/networks/evm:sepolia', key: true }],
    series: { route: '/api/v1/networks/:network_id', method: 'GET', status: '200' },
    count: 1,
  },
  {
    name: 'the bare alias counts as its /api/v1 route',
    requests: [{ method: 'GET', path: '/networks/evm%3Asepolia', key: true }],
    series: { route: '/api/v1/networks/:network_id', method: 'GET', status: '200' },
    count: 1,
  },
  {
    name: 'an unknown network: its route, 404',
    requests: [{ method: 'GET', path: '/api/v1/networks/evm:nope', key: true }],
    series: { route: '/api/v1/networks/:network_id', method: 'GET', status: '404' },
    count: 1,
  },
  {
    name: 'no token: its route, 401',
    requests: [{ method: 'GET', path: '/api/v1/networks' }],
    series: { route: '/api/v1/networks', method: 'GET', status: '401' },
    count: 1,
  },
  {
    name: 'a PATCH the server refuses: 400',
    requests: [{ method: 'PATCH', path: '/api/v1/networks/evm:sepolia', body: '{"rpc_urls":[]}', key: true }],
    series: { route: '/api/v1/networks/:network_id', method: 'PATCH', status: '400' },
    count: 1,
  },
  {
    name: 'fifty unknown paths: one unmatched series',
    requests: Array.from({ length: 50 }, (_, i) => ({ method: 'GET', path: `/nope-${i}/${Math.random()}` })),
    series: { route: 'unmatched', method: 'GET', status: '404' },
    count: 50,
  },
  {
    name: 'a wrong method on a known path: unmatched, 405',
    requests: [{ method: 'DELETE', path: '/api/v1/networks', key: true }],
    series: { route: 'unmatched', method: 'DELETE', status: '405' },
    count: 1,
  },
  {
    name: 'a method netcfg does not know: `other`',
    requests: [{ method: 'PROPFIND', path: '/api/v1/networks', key: true }],
    series: { route: 'unmatched', method: 'other', status: '501' },
    count: 1,
  },
  {
    name: 'readiness, which needs no token',
    requests: [{ method: 'GET', path: '/api/v1/ready' }],
    series: { route: '/api/v1/ready', method: 'GET', status: '200' },
    count: 1,
  },
];

describe('metrics: HTTP requests by route template, method and status (real port)', () => {
  let root: string;
  let store: NetworkStore;
  let app: { url: string; close(): Promise<void> };
  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    store = await startStore(root);
    app = await listenApp(createApp(store, { apiKey: KEY, metrics: new Metrics({ store }) }));
  });
  afterEach(async () => {
    await app.close();
    await store.close();
    removeDir(root);
  });

  const scrape = async (): Promise<string> =>
    (await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).text();

  for (const { name, requests, series, count } of CASES) {
    it(`${name}: ${series.method} ${series.route} ${series.status}`, async () => {
      for (const { method, path, body, key } of requests) {
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          ...(key ? { authorization: `Bearer ${KEY}` } : {}),
        };
        await (
          await fetch(`${app.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
        ).arrayBuffer();
      }
      const text = await scrape();
      expect(valueOf(text, 'netcfg_http_requests_total', series), text.slice(0, 2000)).to.equal(count);
      expect(valueOf(text, 'netcfg_http_request_duration_seconds_count', series), 'the histogram too').to.equal(count);
      const routes = new Set(samplesOf(text, 'netcfg_http_requests_total').map((s) => s.labels.route));
      for (const route of routes)
        expect(route, 'only templates and `unmatched`').to.match(/^(\/[a-z0-9/:._-]*|unmatched)$/);
      expect(samplesOf(text, 'netcfg_http_requests_total').length, 'this case and nothing more').to.equal(1);
    });
  }

  it('a scrape counts itself in the next one', async () => {
    await scrape();
    expect(
      valueOf(await scrape(), 'netcfg_http_requests_total', { route: '/metrics', method: 'GET', status: '200' }),
    ).to.equal(1);
  });
});
