/**
 * The first load of a large folder in worker threads gives exactly what the main thread would.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { expect } from 'chai';
import { DiskSync } from '../../src/store/disk-sync.js';
import { NetworkIndex } from '../../src/store/network-index.js';
import type { Observation } from '../../src/store/disk-sync.js';
import { CHUNK, loadInParallel, PARALLEL_FROM, workersFor } from '../../src/store/parallel-load.js';
import type { NetworkId } from '../../src/store/network-id.js';
import { OPEN_POLICY } from '../../src/store/url-rules.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startStore } from '../helpers/store.js';
import { networkOf } from '../../src/store/network-record.js';

describe('store/parallel-load', () => {
  let root: string;
  before(() => {
    const files: Record<string, string> = {};
    for (let i = 0; i < PARALLEL_FROM + 100; i++) files[`f${i % 7}/n${i}.yaml`] = networkYaml({ rpc_urls: [`https://n${i}.example.com`] });
    files['f1/bad.yaml'] = 'rpc_urls: [\n';
    files['f2/dup.yml'] = networkYaml();
    files['f2/dup.yaml'] = networkYaml();
    root = makeConfigDir(files);
  });
  after(() => removeDir(root));

  it('workers observe and parse exactly what the main thread does', async () => {
    const serial = new DiskSync(root, new NetworkIndex(), OPEN_POLICY);
    const { ids: byId, listing } = serial.listTargets();
    const ids = [...byId.values()];
    const parallel: Observation[] = [];
    const observeHere = (): Observation => {
      throw new Error('the main thread was asked to help');
    };
    await loadInParallel({ root, ids, listing, policy: OPEN_POLICY, workers: 2, observeHere, apply: (obs) => parallel.push(obs), mainThreadHelps: false });
    const order = new Map(ids.map((id, i) => [id.id, i]));
    parallel.sort((a, b) => (order.get(a.id.id) as number) - (order.get(b.id.id) as number));
    expect(parallel.map((o) => o.id.id)).to.deep.equal(ids.map((id) => id.id));
    // Parsed with and without the listing: the same observations.
    expect(parallel).to.deep.equal(ids.map((id) => serial.observeParsed(id, listing)));
    expect(parallel).to.deep.equal(ids.map((id) => serial.observeParsed(id)));
  });

  it('a worker stopped midway leaves what it claimed to the main thread: every network is applied once', async () => {
    const serial = new DiskSync(root, new NetworkIndex(), OPEN_POLICY);
    const { ids: byId, listing } = serial.listTargets();
    const ids = [...byId.values()];
    const applied: string[] = [];
    const readHere: string[] = [];
    const observeHere = (id: NetworkId): Observation => {
      readHere.push(id.id);
      return serial.observe(id, listing);
    };
    // Stopped as its first chunk arrives: by then it has claimed the next one and is reading it.
    const onWorker = (worker: Worker): void => void worker.once('message', () => void worker.terminate());
    await loadInParallel({ root, ids, listing, policy: OPEN_POLICY, workers: 1, observeHere, apply: (obs) => applied.push(obs.id.id), mainThreadHelps: false, onWorker });
    expect(readHere.length).to.be.within(1, ids.length - CHUNK);
    expect([...applied].sort()).to.deep.equal(ids.map((id) => id.id).sort());
  });

  it('small folders load on the main thread alone; large ones use a worker per spare core', () => {
    expect(workersFor(PARALLEL_FROM - 1)).to.equal(0);
    expect(workersFor(PARALLEL_FROM)).to.equal(Math.min(4, availableParallelism() - 1));
  });

  it('a store on a large folder loads every network and reports the bad files', async () => {
    const store = await startStore(root);
    try {
      expect(store.index.size).to.equal(PARALLEL_FROM + 101);
      expect(networkOf(store.get('f3/n3'.replace('/', ':'))).rpc_urls).to.deep.equal([{ url: 'https://n3.example.com', weight: 100 }]);
      expect(store.index.invalidFiles().map((p) => p.path)).to.deep.equal(['f1/bad.yaml', 'f2/dup.yml']);
    } finally {
      await store.close();
    }
  });
});
