/**
 * Packing the loaded index's GET bodies into a few strings off the V8 heap changes no byte that
 * is served: bodies keep their text (non-ASCII included), records keep their identity, and a
 * network written after the pack gets its new body while the others keep theirs.
 */
import { expect } from 'chai';
import request from 'supertest';
import { fullGc } from '../../src/heap.js';
import { createApp } from '../../src/http/app.js';
import { packBodies } from '../../src/store/body-pack.js';
import { recordOf } from '../../src/store/network-record.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startStore } from '../helpers/store.js';

describe('store/body-pack', () => {
  it('keeps every body and every record as they were, across groups of any size', () => {
    const records = Array.from({ length: 1_000 }, (_, i) =>
      recordOf(`evm:n${i}`, `evm/n${i}.yaml`, `"e${i}"`, JSON.stringify({ id: `evm:n${i}`, name: i % 7 === 0 ? `né ${'🙂'.repeat(i % 5)}` : `n${i}`, pad: 'x'.repeat(i % 300) })),
    );
    const before = records.map((r) => ({ ...r }));
    packBodies(records, 10_000); // ~25 groups, the last one partial
    records.forEach((r, i) => expect(r).to.deep.equal(before[i]));
    packBodies(records); // packing again (one group) changes nothing either
    records.forEach((r, i) => expect(r).to.deep.equal(before[i]));
  });

  it('moves the bytes of ASCII bodies off the V8 heap, and leaves other bodies where they are', () => {
    const ascii = Array.from({ length: 8_000 }, (_, i) => recordOf(`evm:a${i}`, `evm/a${i}.yaml`, `"a${i}"`, JSON.stringify({ id: `evm:a${i}`, pad: 'x'.repeat(500) })));
    const other = recordOf('evm:b', 'evm/b.yaml', '"b"', JSON.stringify({ id: 'evm:b', name: 'ü🙂' }));
    const otherBody = other.body;
    const chars = ascii.reduce((n, r) => n + r.body.length, 0);
    const gc = fullGc();
    gc();
    const before = process.memoryUsage().heapUsed;
    packBodies([...ascii, other]);
    gc();
    // The old bodies are garbage; what replaced them on the heap is a small slice object each.
    expect(before - process.memoryUsage().heapUsed).to.be.at.least(chars * 0.8);
    expect(other.body).to.equal(otherBody);
  });

  describe('in a loaded store', () => {
    let root: string;
    beforeEach(() => (root = makeConfigDir(standardFiles())));
    afterEach(() => removeDir(root));

    it('a PATCH after the pack changes its own network and no byte of the others', async () => {
      const store = await startStore(root);
      try {
        const app = createApp(store).callback();
        const list = await request(app).get('/api/v1/networks?per_page=100').expect(200);
        const ids = (list.body.data as Array<{ id: string }>).map((n) => n.id);
        expect(ids.length).to.be.greaterThan(1);
        const bodies = new Map<string, string>();
        for (const id of ids) bodies.set(id, (await request(app).get(`/api/v1/networks/${id}`).expect(200)).text);
        const [first, ...rest] = ids as [string, ...string[]];
        await request(app).patch(`/api/v1/networks/${first}`).send({ rpc_urls: ['https://after-pack.example.com'] }).expect(200);
        const changed = await request(app).get(`/api/v1/networks/${first}`).expect(200);
        expect(changed.body.data.rpc_urls).to.deep.equal([{ url: 'https://after-pack.example.com', weight: 100 }]);
        for (const id of rest) expect((await request(app).get(`/api/v1/networks/${id}`).expect(200)).text).to.equal(bodies.get(id));
      } finally {
        await store.close();
      }
    });
  });
});
