/**
 * The write loop's retries, on a real folder: each reason of retries.ts makes the write again
 * within its bound, is counted (store.retryCounts()), and past its bound the client hears the
 * table's refusal. The disk's steps are the real ones; the disk steps only changes the file, as
 * another process would, at the moment between the PATCH's read and its rename.
 */
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { NetcfgError } from '../../src/errors.js';
import { ANONYMOUS } from '../../src/store/actor.js';
import { realDisk, type DiskSteps } from '../../src/store/write/disk-steps.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import type { RetryReason } from '../../src/store/retries.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startStore } from '../helpers/store.js';

/** An disk steps that does `meddle` to the network's file the first `times` times a temp file is written (before the rename). */
function meddling(times: number, meddle: (file: string) => void): DiskSteps {
  let left = times;
  return {
    ...realDisk,
    async writeNewDurable(file, data, mode) {
      await realDisk.writeNewDurable(file, data, mode);
      if (left-- > 0) meddle(sepoliaOf(file));
    },
  };
}

let root = '';
const sepoliaOf = (_tmp: string): string => path.join(root, 'evm', 'sepolia.yaml');
const otherWrite = (file: string): void =>
  writeFileSync(file, networkYaml({ rpc_urls: [`https://other-${Math.random()}.example.com`] }));

interface Case {
  name: string;
  fs?: () => DiskSteps;
  /** Made before the PATCH: another process's state. */
  before?: () => void;
  /** The answer: 'ok' or the error code. */
  answer: string;
  counts: Partial<Record<RetryReason, number>>;
}

const CASES: Case[] = [
  {
    name: 'the file changed once between the read and the rename: read again, written',
    fs: () => meddling(1, otherWrite),
    answer: 'ok',
    counts: { moved: 1 },
  },
  {
    name: 'the file kept changing: three attempts, then 412',
    fs: () => meddling(99, otherWrite),
    answer: 'PRECONDITION_FAILED',
    counts: { moved: 3 },
  },
  {
    name: 'the file was deleted before the rename (no git work tree): 404 at once',
    fs: () => meddling(1, unlinkSync),
    answer: 'NETWORK_NOT_FOUND',
    counts: { gone: 1 },
  },
  {
    name: "another process held the network's lock until it went stale: waited, written",
    before: () => mkdirSync(path.join(root, '.locks', 'evm~sepolia.lock'), { recursive: true }),
    answer: 'ok',
    counts: { 'lock-busy': 1 },
  },
  { name: 'nothing in the way: no retry', answer: 'ok', counts: {} },
];

describe('store/retries: the write loop, reason by reason (real folder)', () => {
  let store: NetworkStore;

  beforeEach(() => {
    root = makeConfigDir(standardFiles());
  });
  afterEach(async () => {
    await store?.close();
    removeDir(root);
  });

  for (const c of CASES) {
    it(c.name, async () => {
      store = await startStore(root, { ...(c.fs ? { fs: c.fs() } : {}), lock: { staleMs: 400, maxWaitMs: 5000 } });
      c.before?.();
      const answer = await store
        .update('evm:sepolia', { rpc_urls: ['https://mine.example.com'] }, undefined, ANONYMOUS)
        .then(
          () => 'ok',
          (err: unknown) => (err instanceof NetcfgError ? err.code : String(err)),
        );
      expect(answer).to.equal(c.answer);
      const expected = {
        moved: 0,
        gone: 0,
        'git-busy': 0,
        rejected: 0,
        'lock-busy': 0,
        'git-lock': 0,
        rebased: 0,
        ...c.counts,
      };
      expect(store.retryCounts()).to.deep.equal(expected);
    });
  }
});
