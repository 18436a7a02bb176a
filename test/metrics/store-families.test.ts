/**
 * The store's families, scraped through the app on a real port over a real store: a table of
 * what happens (a bad file merged, PATCHes, a file added, GIT_SYNC against a `git daemon` remote on
 * loopback, the remote stopped) and the samples each must show. Without GIT_SYNC the git families
 * have no series at all.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { Metrics } from '../../src/metrics/metrics.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { samplesOf, valueOf } from '../helpers/exposition.js';
import { cloneOf, startGitRemote, type GitRemote } from '../helpers/git-daemon.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles, writeFile } from '../helpers/fixtures.js';
import { nextChange, startStore, until } from '../helpers/store.js';
import { listenApp } from '../helpers/write-support.js';

interface Rig {
  store: NetworkStore;
  url: string;
  root: string;
  remote: GitRemote | null;
}

interface Case {
  name: string;
  gitSync?: boolean;
  act: (rig: Rig) => Promise<unknown>;
  expect: (text: string) => void;
}

const patch = (rig: Rig, ifMatch?: string): Promise<Response> =>
  fetch(`${rig.url}/api/v1/networks/evm:sepolia`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', ...(ifMatch ? { 'if-match': ifMatch } : {}) },
    body: JSON.stringify({ rpc_urls: [`https://m-${Math.random()}.example.com`] }),
  });

const CASES: Case[] = [
  {
    name: 'at start: networks served, no invalid file, ready, every retry reason at 0, no git series',
    act: async () => undefined,
    expect: (t) => {
      expect([
        valueOf(t, 'netcfg_networks_served'),
        valueOf(t, 'netcfg_invalid_files'),
        valueOf(t, 'netcfg_ready'),
        valueOf(t, 'netcfg_degraded'),
      ]).to.deep.equal([3, 0, 1, 0]);
      expect(samplesOf(t, 'netcfg_write_retries_total').map((s) => [s.labels.reason, s.value])).to.deep.equal(
        ['moved', 'gone', 'git-busy', 'rejected', 'lock-busy', 'git-lock', 'rebased'].map((r) => [r, 0]),
      );
      expect(valueOf(t, 'netcfg_writes_total', { outcome: 'ok' })).to.equal(0);
      expect(t.split('\n').filter((l) => l.startsWith('netcfg_git_'))).to.deep.equal([]);
    },
  },
  {
    name: 'a bad file merged: one invalid file, degraded, still ready',
    act: async ({ store, root }) => {
      writeFileSync(path.join(root, 'evm', 'mainnet.yaml'), 'rpc_urls: [\n');
      await until(
        store,
        () => store.readiness().components.index.invalid_files.length === 1,
        5000,
        'the bad file seen',
      );
    },
    expect: (t) =>
      expect([
        valueOf(t, 'netcfg_invalid_files'),
        valueOf(t, 'netcfg_degraded'),
        valueOf(t, 'netcfg_ready'),
        valueOf(t, 'netcfg_networks_served'),
      ]).to.deep.equal([1, 1, 1, 3]),
  },
  {
    name: 'two PATCHes and a stale If-Match: writes by outcome',
    act: async (rig) => {
      for (const answer of [await patch(rig), await patch(rig), await patch(rig, '"stale"')])
        await answer.arrayBuffer();
    },
    expect: (t) =>
      expect(samplesOf(t, 'netcfg_writes_total').map((s) => [s.labels.outcome, s.value])).to.deep.equal([
        ['ok', 2],
        ['precondition_failed', 1],
      ]),
  },
  {
    name: 'a file added: the watcher counted it, and one more network served',
    act: async ({ store, root }) => {
      const added = nextChange(store, (c) => c.id === 'evm:added');
      writeFile(root, 'evm/added.yaml', networkYaml());
      await added;
      await until(store, () => (store.counts().watcherEvents.add ?? 0) > 0, 5000, 'the add counted');
    },
    expect: (t) => {
      expect(valueOf(t, 'netcfg_watcher_events_total', { event: 'add' })).to.be.at.least(1);
      expect(valueOf(t, 'netcfg_networks_served')).to.equal(4);
    },
  },
  {
    name: 'GIT_SYNC, a PATCH pushed: in step, both ages, one push timed, no failure',
    gitSync: true,
    act: async (rig) => (await patch(rig)).arrayBuffer(),
    expect: (t) => {
      const upstream = { upstream: 'origin/main' };
      expect([
        valueOf(t, 'netcfg_git_behind_commits', upstream),
        valueOf(t, 'netcfg_git_ahead_writes', upstream),
      ]).to.deep.equal([0, 0]);
      expect(valueOf(t, 'netcfg_git_last_pull_age_seconds', upstream))
        .to.be.at.least(0)
        .and.below(60);
      expect(valueOf(t, 'netcfg_git_last_push_age_seconds', upstream))
        .to.be.at.least(0)
        .and.below(60);
      expect(valueOf(t, 'netcfg_git_push_duration_seconds_count', upstream)).to.equal(1);
      expect(valueOf(t, 'netcfg_git_pulls_total', upstream)).to.be.at.least(1);
      expect([
        valueOf(t, 'netcfg_git_pull_failures_total', upstream),
        valueOf(t, 'netcfg_git_push_failures_total', upstream),
      ]).to.deep.equal([0, 0]);
    },
  },
  {
    name: 'GIT_SYNC, the remote stopped: the push and a pull fail, counted; no push age yet',
    gitSync: true,
    act: async (rig) => {
      await rig.remote!.stop();
      await (await patch(rig)).arrayBuffer();
      await rig.store.caughtUp();
    },
    expect: (t) => {
      const upstream = { upstream: 'origin/main' };
      expect([
        valueOf(t, 'netcfg_git_push_failures_total', upstream),
        valueOf(t, 'netcfg_git_push_duration_seconds_count', upstream),
      ]).to.deep.equal([1, 1]);
      expect(valueOf(t, 'netcfg_git_pull_failures_total', upstream)).to.be.at.least(1);
      expect(valueOf(t, 'netcfg_git_last_push_age_seconds', upstream), 'never reached').to.equal(undefined);
      expect(valueOf(t, 'netcfg_writes_total', { outcome: 'git_remote_unavailable' })).to.equal(1);
    },
  },
];

describe('metrics: the store, readiness, writes, the watcher and GIT_SYNC (real store, real port)', function () {
  this.timeout(30_000);
  let rig: Rig | null = null;
  let close: () => Promise<void> = async () => undefined;
  afterEach(async () => {
    await close();
    if (rig?.remote) {
      await rig.remote.stop();
      rmSync(rig.remote.dir, { recursive: true, force: true });
    } else if (rig) removeDir(rig.root);
    rig = null;
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const remote = c.gitSync ? await startGitRemote(standardFiles()) : null;
      const root = remote
        ? path.join(cloneOf(remote, 'replica'), 'config', 'networks')
        : makeConfigDir(standardFiles());
      const store = await startStore(root, remote ? { gitSync: { intervalMs: 3_600_000, remoteTimeoutMs: 5000 } } : {});
      const app = await listenApp(createApp(store, { metrics: new Metrics({ store }) }));
      close = async () => (await app.close(), await store.close());
      rig = { store, url: app.url, root, remote };
      await c.act(rig);
      c.expect(await (await fetch(`${app.url}/metrics`)).text());
      // A second scrape shows the same counts: a push is observed once, and what was observed stays.
      c.expect(await (await fetch(`${app.url}/metrics`)).text());
    });
  }
});
