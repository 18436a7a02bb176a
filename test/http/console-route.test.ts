/**
 * The console's files at `/` and `/console/<file>`: from memory, with an ETag and the
 * Content-Security-Policy; nothing else of the disk is reachable through them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { loadConsoleAssets } from '../../src/console-assets.js';
import { createApp } from '../../src/http/app.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startStore } from '../helpers/store.js';

describe('http/console: the operator console files', () => {
  let root: string;
  let built: string;
  let store: NetworkStore;
  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    store = await startStore(root);
    built = mkdtempSync(path.join(tmpdir(), 'netcfg-console-'));
    writeFileSync(path.join(built, 'index.html'), '<!doctype html><title>netcfg</title>');
    writeFileSync(path.join(built, 'app.js'), 'console.log(1)');
    writeFileSync(path.join(built, 'app.css'), 'body{}');
    writeFileSync(path.join(built, 'notes.txt'), 'not served');
  });
  afterEach(async () => {
    await store.close();
    removeDir(root);
    removeDir(built);
  });

  it('the page, its script and stylesheet, each with its type, an ETag (304 when fresh) and the CSP', async () => {
    const app = createApp(store, {
      consoleAssets: loadConsoleAssets(built),
      apiKey: 'a-key-that-guards-the-api-only-0123456789',
    }).callback();
    const cases = [
      { path: '/', type: /^text\/html/, body: '<!doctype html><title>netcfg</title>' },
      { path: '/console/app.js', type: /^text\/javascript/, body: 'console.log(1)' },
      { path: '/console/app.css', type: /^text\/css/, body: 'body{}' },
    ];
    for (const c of cases) {
      const res = await request(app).get(c.path).expect(200);
      expect(res.headers['content-type']).to.match(c.type);
      expect(res.text).to.equal(c.body);
      expect(res.headers['content-security-policy']).to.include("script-src 'self'").and.include("default-src 'none'");
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      await request(app)
        .get(c.path)
        .set('If-None-Match', res.headers.etag as string)
        .expect(304);
    }
  });

  const refused = ['/console/notes.txt', '/console/..%2F..%2Fpackage.json', '/console/missing.js', '/console/'];
  for (const p of refused) {
    it(`nothing else: ${p} is a 404 envelope`, async () => {
      const res = await request(createApp(store, { consoleAssets: loadConsoleAssets(built) }).callback())
        .get(p)
        .expect(404);
      expect(res.body).to.include({ success: false, code: 'ROUTE_NOT_FOUND' });
    });
  }

  it('not built: `/` says how to build it; without the option there is no console at all', async () => {
    expect(loadConsoleAssets(path.join(built, 'nowhere'))).to.equal(null);
    const res = await request(createApp(store, { consoleAssets: null }).callback())
      .get('/')
      .expect(404);
    expect(res.body.error).to.match(/console is not built; `make build`/);
    const none = await request(createApp(store).callback()).get('/').expect(404);
    expect(none.body.error).to.not.match(/console/);
  });
});
