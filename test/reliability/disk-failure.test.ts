/**
 * The disk says no: every step of a PATCH that touches the disk (the lock folder, the read, the
 * temp file, the rename, the folder sync) fails in turn with ENOSPC, EIO and EROFS, injected at
 * the store's one disk steps. Each time: 503 STORAGE_UNAVAILABLE in the envelope naming the errno, a
 * file that is whole (untouched when the failure came before the rename), no temp file left, the
 * index still serving what is on disk, readiness saying why, and a clean recovery with no help
 * once the disk works again (the client simply retries the same PATCH).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../src/http/app.js';
import { etagOf } from '../../src/store/validation/network-file.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { FailingFs, type FailingStep } from '../helpers/reliability-failing-fs.js';
import { tempFiles } from '../helpers/reliability-disk.js';
import { isEnvelope } from '../helpers/reliability-http.js';
import { startStore, until } from '../helpers/store.js';

const CODES = ['ENOSPC', 'EIO', 'EROFS'];
const STEPS: FailingStep[] = ['mkdir', 'readFile', 'writeNewDurable', 'rename', 'fsyncDir'];
const NEW_URLS = [{ url: 'https://new.example.com/rpc', weight: 70 }];
const FILE = 'evm/sepolia.yaml';

interface Ready {
  ready: boolean;
  reason?: string;
  components: { storage: { status: string; error?: string } };
}

describe('reliability: the disk says no (disk steps)', () => {
  let root: string;
  let store: NetworkStore;
  let fs: FailingFs;
  let agent: ReturnType<typeof request>;

  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    fs = new FailingFs();
    store = await startStore(root, { fs });
    agent = request(createApp(store).callback());
  });
  afterEach(async () => {
    await store.close();
    removeDir(root);
  });

  for (const code of CODES) {
    for (const step of STEPS) {
      it(`${code} at ${step}: 503 in the envelope, file whole, no temp file, reads go on, readiness says why, then recovers`, async () => {
        const file = path.join(root, FILE);
        const before = readFileSync(file);
        fs.failure = { step, code };

        const refused = await agent.patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: NEW_URLS });
        expect(fs.hits, 'the injected failure was reached').to.equal(1);
        expect(refused.status).to.equal(503);
        expect(isEnvelope(refused.text), refused.text).to.equal(true);
        expect(refused.body.code).to.equal('STORAGE_UNAVAILABLE');
        expect(refused.body.error).to.include(code);

        const after = readFileSync(file);
        if (step === 'fsyncDir') {
          // The rename happened before the folder sync failed: the new file is in place, whole,
          // and the answer must not claim the file is unchanged.
          expect(after.toString()).to.include('https://new.example.com/rpc');
          expect(refused.body.error).not.to.match(/unchanged/);
        } else {
          expect(after.equals(before), `${FILE} changed although the write failed at ${step}`).to.equal(true);
        }
        expect(tempFiles(root), 'temp files left behind').to.deep.equal([]);

        // Reads keep being served, and what they serve is what is on disk.
        await until(
          store,
          () => store.get('evm:sepolia').etag === etagOf(after),
          5000,
          'the index to serve the file on disk',
        );
        const read = await agent.get('/api/v1/networks/evm:sepolia');
        expect(read.status).to.equal(200);
        expect(read.headers.etag).to.equal(etagOf(after));

        const degraded = (await agent.get('/api/v1/ready')).body as Ready;
        expect(degraded.ready, 'a refused write must not take the replica out of service').to.equal(true);
        expect(degraded.components.storage.status).to.equal('degraded');
        expect(degraded.components.storage.error ?? '', 'readiness names the errno').to.include(code);
        expect(degraded.reason ?? '').to.include(code);

        // The disk works again; the client retries the same PATCH and nobody cleans anything up.
        fs.failure = null;
        const retried = await agent.patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: NEW_URLS });
        expect(retried.status, retried.text).to.equal(200);
        expect(retried.body.data.rpc_urls).to.deep.equal(NEW_URLS);
        expect(readFileSync(file, 'utf8')).to.include('https://new.example.com/rpc');
        const healthy = (await agent.get('/api/v1/ready')).body as Ready;
        expect(healthy.components.storage, 'storage recovered in readiness').to.deep.equal({ status: 'healthy' });
        expect(healthy.reason).to.equal(undefined);
      });
    }
  }
});
