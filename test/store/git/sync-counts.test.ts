/**
 * GIT_SYNC's traffic counted for the metrics (store.counts().git), against a real remote (a bare
 * repository served by `git daemon` on loopback): pulls and pushes since start, those that failed
 * (the remote stopped), and each push's duration; without GIT_SYNC there is nothing to count.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ANONYMOUS } from '../../../src/store/actor.js';
import type { GitCounts } from '../../../src/store/git/sync-report.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { cloneOf, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { standardFiles } from '../../helpers/fixtures.js';
import { startStore } from '../../helpers/store.js';

interface Case {
  name: string;
  act: (store: NetworkStore, remote: GitRemote) => Promise<unknown>;
  expect: (counts: GitCounts) => void;
}

const patch = (store: NetworkStore): Promise<unknown> =>
  store.update('evm:sepolia', { rpc_urls: [`https://pushed-${Math.random()}.example.com`] }, undefined, ANONYMOUS);

const CASES: Case[] = [
  {
    name: 'a pull that reaches the remote',
    act: (store) => store.caughtUp(),
    expect: (c) =>
      expect(c).to.deep.include({ pull_failures: 0, pushes: 0, push_failures: 0 }).and.property('pulls').at.least(2),
  },
  {
    name: 'a PATCH pushed: one push, with its duration',
    act: (store) => patch(store),
    expect: (c) => {
      expect(c).to.deep.include({ pushes: 1, push_failures: 0 });
      expect(c.push_seconds).to.have.length(1);
      expect(c.push_seconds[0]).to.be.above(0).and.below(30);
    },
  },
  {
    name: "the remote stopped: the PATCH's push fails",
    act: async (store, remote) => {
      await remote.stop();
      await patch(store).catch(() => undefined);
    },
    expect: (c) =>
      expect(c).to.deep.include({ pushes: 1, push_failures: 1 }).and.property('push_seconds').with.length(1),
  },
  {
    name: 'the remote stopped: a pull fails',
    act: async (store, remote) => {
      await remote.stop();
      await store.caughtUp();
    },
    expect: (c) => expect(c.pull_failures).to.be.at.least(1),
  },
];

describe('store/git: GIT_SYNC counted for the metrics (git daemon on loopback)', function () {
  this.timeout(30_000);
  let remote: GitRemote;
  let store: NetworkStore | undefined;
  beforeEach(async () => {
    remote = await startGitRemote(standardFiles());
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  for (const c of CASES) {
    it(c.name, async () => {
      store = await startStore(path.join(cloneOf(remote, 'replica'), 'config', 'networks'), {
        gitSync: { intervalMs: 3_600_000, remoteTimeoutMs: 5000 },
      });
      expect(store.counts().git, 'after start: its first pull').to.deep.include({
        pulls: 1,
        pull_failures: 0,
        pushes: 0,
        push_failures: 0,
      });
      await c.act(store, remote);
      c.expect(store.counts().git!);
    });
  }

  it('without GIT_SYNC (a plain clone): nothing counted', async () => {
    store = await startStore(path.join(cloneOf(remote, 'plain'), 'config', 'networks'));
    expect(store.counts().git).to.equal(null);
  });
});
