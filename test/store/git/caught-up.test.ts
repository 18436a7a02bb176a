/**
 * `caughtUp()` with GIT_SYNC: once it resolves, what the pull brought is served. The relayer sync
 * relies on it (a pass lists a relayer, catches up, then compares): a pull whose files the watcher
 * has not heard of yet would leave the older value served, and a new holder of the relayer lease
 * would send it, setting the relayer back. Two stores on clones of one remote (git daemon on
 * loopback); the reader asks at once, never waiting for the watcher's events.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ANONYMOUS } from '../../../src/store/actor.js';
import { networkOf } from '../../../src/store/network-record.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { cloneOf, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { networkYaml } from '../../helpers/fixtures.js';
import { startStore } from '../../helpers/store.js';

const CASES = [
  { name: 'one commit pulled', writes: 1 },
  { name: 'two commits pulled at once', writes: 2 },
  { name: 'five rounds of one commit each', writes: 1, rounds: 5 },
];

describe('store/git: caughtUp() serves what its pull brought (two clones of one remote)', function () {
  this.timeout(60_000);
  let remote: GitRemote;
  let stores: NetworkStore[] = [];

  afterEach(async () => {
    await Promise.all(stores.map((s) => s.close()));
    stores = [];
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  for (const { name, writes, rounds = 1 } of CASES) {
    it(`${name}: the reader serves the newest value as soon as caughtUp() resolves`, async () => {
      remote = await startGitRemote({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: ['https://v0.example.com'] }) });
      const open = (who: string): Promise<NetworkStore> =>
        startStore(path.join(cloneOf(remote, who), 'config', 'networks'), { gitSync: { intervalMs: 3_600_000 } });
      const [writer, reader] = [await open('writer'), await open('reader')];
      stores = [writer, reader];
      let n = 0;
      for (let round = 0; round < rounds; round++) {
        for (let w = 0; w < writes; w++)
          await writer.update('evm:sepolia', { rpc_urls: [`https://v${++n}.example.com`] }, undefined, ANONYMOUS);
        await reader.caughtUp();
        expect(networkOf(reader.get('evm:sepolia')).rpc_urls, `round ${round}`).to.deep.equal([
          { url: `https://v${n}.example.com`, weight: 100 },
        ]);
      }
    });
  }
});
