/**
 * The published contract: every route the router serves is in the OpenAPI document, and real
 * responses validate against the document's schemas (built from the same JSON Schemas).
 */
import { expect } from 'chai';
import request from 'supertest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type Router from '@koa/router';
import type Koa from 'koa';
import { createApp } from '../../src/http/app.js';
import { RelayerSync } from '../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../src/relayer/sync/store-desired.js';
import { Metrics } from '../../src/metrics/metrics.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startStore } from '../helpers/store.js';

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
};

function routerOf(app: Koa): Router {
  const dispatch = app.middleware.find((m) => 'router' in m) as unknown as { router: Router };
  return dispatch.router;
}

describe('OpenAPI document', () => {
  let root: string;
  let store: NetworkStore;
  let app: Koa;
  let doc: Doc;
  let ajv: Ajv2020;

  before(async () => {
    root = makeConfigDir(standardFiles());
    store = await startStore(root);
    // Every optional route too: the relayer sync's (no relayer) and the metrics, so each is held to the document.
    app = createApp(store, {
      relayers: new RelayerSync([], desiredFromStore(store), {
        intervalMs: 60_000,
        timeoutMs: 1000,
        maxBytes: 1024,
        log: { info: () => undefined, warn: () => undefined },
      }),
      metrics: new Metrics({ store }),
    });
    doc = (await request(app.callback()).get('/api/v1/openapi.json').expect(200)).body as Doc;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ ...doc, $id: 'https://netcfg.local/openapi.json' });
  });
  after(async () => {
    await store.close();
    removeDir(root);
  });

  function validate(schema: string, body: unknown): void {
    const check = ajv.getSchema(`https://netcfg.local/openapi.json#/components/schemas/${schema}`);
    expect(check, schema).to.be.a('function');
    const ok = check!(body);
    expect(ok, JSON.stringify(check!.errors)).to.equal(true);
  }

  it('is OpenAPI 3.1 and lists every route the router serves, with every method', () => {
    expect(doc).to.have.property('openapi', '3.1.0');
    const served = routerOf(app).stack.flatMap((layer) =>
      layer.methods
        .filter((m) => m !== 'HEAD')
        .map((m) => ({ path: String(layer.path).replace(/:([a-z_]+)/g, '{$1}'), method: m.toLowerCase() })),
    );
    expect(served.length).to.be.greaterThan(10);
    for (const { path, method } of served) {
      expect(doc.paths, `${method} ${path}`).to.have.property(path);
      expect(doc.paths[path], `${method} ${path}`).to.have.property(method);
    }
  });

  it('documents an error response with an example for each error status of PATCH', () => {
    const responses = doc.paths['/api/v1/networks/{network_id}']!.patch!.responses;
    for (const status of ['400', '401', '403', '404', '409', '412', '413', '415', '428', '500', '503']) {
      expect(responses, status).to.have.property(status);
      const example = (responses[status] as { content: Record<string, { example: unknown }> }).content[
        'application/json'
      ]!.example;
      validate('Error', example);
    }
  });

  it('real responses validate against the document', async () => {
    const http = request(app.callback());
    validate('NetworkList', (await http.get('/api/v1/networks?per_page=2').expect(200)).body);
    validate('NetworkEnvelope', (await http.get('/api/v1/networks/evm:sepolia').expect(200)).body);
    validate('Readiness', (await http.get('/api/v1/ready').expect(200)).body);
    validate('MeEnvelope', (await http.get('/api/v1/access/me').expect(200)).body);
    validate('Error', (await http.get('/api/v1/networks/evm:nope').expect(404)).body);
    validate('Error', (await http.get('/api/v1/networks?page=0').expect(400)).body);
    const patched = await http
      .patch('/api/v1/networks/evm:sepolia')
      .send({ rpc_urls: ['https://x.example.com', { url: 'https://y.example.com', weight: 5 }] })
      .expect(200);
    validate('NetworkEnvelope', patched.body);
    validate('Error', (await http.patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: [] }).expect(400)).body);
    validate('UpdateNetworkRequest', { rpc_urls: ['https://x.example.com'] });
  });

  it('GET /metrics answers the media type the document names', async () => {
    const documented = Object.keys(
      (doc.paths['/metrics']!.get!.responses['200'] as { content: Record<string, unknown> }).content,
    );
    const res = await request(app.callback()).get('/metrics').expect(200);
    expect(documented.map((type) => res.headers['content-type']?.startsWith(type))).to.deep.equal([true]);
  });

  it('a response that breaks the contract does not validate (the check can fail)', () => {
    const check = ajv.getSchema('https://netcfg.local/openapi.json#/components/schemas/NetworkEnvelope')!;
    expect(
      check({
        success: true,
        data: { id: 'evm:x', name: 'x', network_type: 'evm', rpc_urls: ['https://plain.example.com'] },
        error: null,
      }),
    ).to.equal(false);
    expect(
      check({
        success: true,
        data: { id: 'evm:x', name: 'x', network_type: 'evm', rpc_urls: [], chain_id: 0 },
        error: null,
      }),
    ).to.equal(false);
  });

  it('serves the JSON Schemas themselves', async () => {
    const http = request(app.callback());
    const network = (await http.get('/api/v1/schemas/network.json').expect(200)).body as Record<string, unknown>;
    expect(network.$schema).to.equal('https://json-schema.org/draft/2020-12/schema');
    expect(network.required).to.deep.equal(['rpc_urls']);
    const update = (await http.get('/api/v1/schemas/update-network.json').expect(200)).body as Record<string, unknown>;
    expect(update.additionalProperties).to.equal(false);
    expect(doc.components.schemas.NetworkFile).to.deep.equal(network);
  });
});
