/**
 * store.counts(), what the metrics read of the store since start, on a real folder and watcher:
 * each write counted once by its outcome (`ok`, or the error code it was refused with, whether
 * the refusal came before the writer, from it, or past its retries), and the watcher's events by
 * chokidar's name, with its five names at 0 before the first.
 */
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ANONYMOUS } from '../../src/store/actor.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles, writeFile } from '../helpers/fixtures.js';
import { nextChange, startStore, until } from '../helpers/store.js';

const URLS = { rpc_urls: ['https://counted.example.com'] };

interface WriteCase {
  name: string;
  write: (store: NetworkStore, root: string) => Promise<unknown>;
  outcome: string;
}

const WRITES: WriteCase[] = [
  { name: 'a change written', write: (s) => s.update('evm:sepolia', URLS, undefined, ANONYMOUS), outcome: 'ok' },
  {
    name: 'a PATCH that changes nothing is answered too',
    write: async (s) => (
      await s.update('evm:sepolia', URLS, undefined, ANONYMOUS),
      s.update('evm:sepolia', URLS, undefined, ANONYMOUS)
    ),
    outcome: 'ok',
  },
  {
    name: 'a stale If-Match (from the writer)',
    write: (s) => s.update('evm:sepolia', URLS, '"stale"', ANONYMOUS),
    outcome: 'precondition_failed',
  },
  {
    name: 'a body that is not a PATCH (before the writer)',
    write: (s) => s.update('evm:sepolia', { chain_id: 1 }, undefined, ANONYMOUS),
    outcome: 'validation_failed',
  },
  {
    name: 'a network that does not exist',
    write: (s) => s.update('evm:nope', URLS, undefined, ANONYMOUS),
    outcome: 'network_not_found',
  },
  { name: 'a malformed id', write: (s) => s.update('nope', URLS, undefined, ANONYMOUS), outcome: 'invalid_id' },
  {
    name: 'a file whose current version is invalid',
    write: async (s, root) => {
      writeFileSync(path.join(root, 'evm', 'mainnet.yaml'), 'rpc_urls: [\n');
      await until(s, () => s.readiness().components.index.invalid_files.length > 0, 5000, 'the bad file seen');
      return s.update('evm:mainnet', URLS, undefined, ANONYMOUS);
    },
    outcome: 'file_invalid',
  },
];

describe("store.counts(): writes by outcome and the watcher's events (real folder)", () => {
  let root: string;
  let store: NetworkStore;
  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    store = await startStore(root);
  });
  afterEach(async () => {
    await store.close();
    removeDir(root);
  });

  for (const { name, write, outcome } of WRITES) {
    it(`${name}: counted as ${outcome}`, async () => {
      expect(store.counts().writes, 'before any write').to.deep.equal({ ok: 0 });
      await write(store, root).catch(() => undefined);
      const counts = store.counts().writes;
      const expected = name.includes('changes nothing') ? 2 : 1;
      expect(counts[outcome as keyof typeof counts], JSON.stringify(counts)).to.equal(expected);
      const total = Object.values(counts).reduce((a, b) => (a ?? 0) + (b ?? 0), 0);
      expect(total, 'each write counted once').to.equal(expected);
    });
  }

  it("the watcher's events by name: zeros before the first, then each add, change and unlink counted", async () => {
    expect(store.counts().watcherEvents).to.deep.equal({ add: 0, change: 0, unlink: 0, addDir: 0, unlinkDir: 0 });
    const steps: Array<[string, () => void, string]> = [
      ['add', () => writeFile(root, 'evm/added.yaml', networkYaml()), 'evm:added'],
      [
        'change',
        () =>
          writeFileSync(
            path.join(root, 'evm', 'added.yaml'),
            networkYaml({ rpc_urls: ['https://changed.example.com'] }),
          ),
        'evm:added',
      ],
      ['unlink', () => unlinkSync(path.join(root, 'evm', 'added.yaml')), 'evm:added'],
    ];
    for (const [event, act, id] of steps) {
      const seen = nextChange(store, (c) => c.id === id);
      act();
      await seen;
      // The change may be served from chokidar's raw event before its named one comes: awaited, with a deadline.
      await until(store, () => (store.counts().watcherEvents[event] ?? 0) >= 1, 5000, `a counted ${event}`);
    }
  });
});
