/**
 * The first load of a large folder in worker threads gives exactly what the main thread would.
 */
import { expect } from 'chai';
import { DiskSync } from '../../src/store/disk-sync.js';
import { NetworkIndex } from '../../src/store/network-index.js';
import { observeInWorkers, PARALLEL_FROM, workersFor } from '../../src/store/parallel-load.js';
import { OPEN_POLICY } from '../../src/store/url-rules.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startStore } from '../helpers/store.js';

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
    const ids = [...serial.listTargets().ids.values()];
    expect(workersFor(ids.length)).to.be.greaterThan(1);
    const parallel = await observeInWorkers(root, ids, OPEN_POLICY, 2);
    expect(parallel.map((o) => o.id.id)).to.deep.equal(ids.map((id) => id.id));
    const expected = ids.map((id) => serial.observeParsed(id));
    expect(parallel).to.deep.equal(expected);
  });

  it('a store on a large folder loads every network and reports the bad files', async () => {
    const store = await startStore(root);
    try {
      expect(store.index.size).to.equal(PARALLEL_FROM + 101);
      expect(store.get('f3/n3'.replace('/', ':')).network.rpc_urls).to.deep.equal([{ url: 'https://n3.example.com', weight: 100 }]);
      expect(store.index.invalidFiles().map((p) => p.path)).to.deep.equal(['f1/bad.yaml', 'f2/dup.yml']);
    } finally {
      await store.close();
    }
  });
});
