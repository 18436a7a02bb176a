/**
 * The contract of adding a network: POST /api/v1/networks (both paths) and GET
 * /api/v1/registry/chains are in the OpenAPI document, and their real answers (a dry run, a 201, a
 * 409, a search) validate against it. The app in-process, a registry fixture, one loopback stand-in.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createApp } from '../../src/http/app.js';
import { DEFAULT_PROBER, Prober } from '../../src/probe/prober.js';
import { NetworkCreation } from '../../src/registry/creation.js';
import type { NetworkStore } from '../../src/store/index.js';
import { chainEntry, startChainStandIn, writeRegistry, type ChainStandIn } from '../helpers/chain-stand-in.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startStore } from '../helpers/store.js';

describe('OpenAPI document: adding a network', () => {
  let root: string;
  let dir: string;
  let store: NetworkStore;
  let rpc: ChainStandIn;
  let prober: Prober;
  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-openapi-create-'));
    store = await startStore(root);
    rpc = await startChainStandIn({ chainId: 31, head: 2000 });
    prober = new Prober({ ...DEFAULT_PROBER, timeoutMs: 2000 });
  });
  afterEach(async () => {
    prober.close();
    await rpc.close();
    await store.close();
    removeDir(root);
    removeDir(dir);
  });

  it('documents both routes, and their real answers validate', async () => {
    const registryFile = writeRegistry(dir, [chainEntry(31, 'Thirty One', 'thirty', [rpc.url])]);
    const policy = { blockPrivate: false, allowedHosts: [] };
    const app = createApp(store, { creation: new NetworkCreation({ registryFile, prober, policy }) });
    const http = request(app.callback());
    const doc = (await http.get('/api/v1/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.paths['/api/v1/networks']).to.have.property('post');
    expect(doc.paths['/networks']).to.have.property('post');
    expect(doc.paths['/api/v1/registry/chains']).to.have.property('get');
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ ...doc, $id: 'https://netcfg.local/openapi.json' });
    const validate = (schema: string, body: unknown) => {
      const check = ajv.getSchema(`https://netcfg.local/openapi.json#/components/schemas/${schema}`)!;
      expect(check(body), `${schema}: ${JSON.stringify(check.errors)}`).to.equal(true);
    };
    const body = { id: 'evm:thirty', from_registry: true, allow_http: true };
    const dry = await http
      .post('/api/v1/networks')
      .send({ ...body, dry_run: true })
      .expect(200);
    validate('PlannedNetwork', dry.body);
    validate('CreateNetworkBody', body);
    const created = await http.post('/networks').send(body).expect(201);
    validate('CreatedNetwork', created.body);
    validate('Error', (await http.post('/api/v1/networks').send(body).expect(409)).body);
    validate('ChainMatches', (await http.get('/api/v1/registry/chains?q=31').expect(200)).body);
  });
});
