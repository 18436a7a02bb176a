/**
 * GET /metrics on the built server with every part running: GIT_SYNC against a `git daemon` remote,
 * the live prober on fake JSON-RPC endpoints, the relayer sync with a stand-in relayer, API_KEY,
 * all on loopback. Its output passes `promtool check metrics`, and a real Prometheus started here
 * (scraping it every 200 ms with the bearer token from a file, as docs/metrics.md shows, and an
 * in-process app holding a stand-in self-healing view) answers a query for every family.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { Metrics } from '../../src/metrics/metrics.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { within } from '../helpers/deadline.js';
import { familiesOf, parseExposition } from '../helpers/exposition.js';
import { startFakeRpc, type FakeRpc } from '../helpers/fake-rpc.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../helpers/fixtures.js';
import { cloneOf, startGitRemote, type GitRemote } from '../helpers/git-daemon.js';
import { promtoolCheck, startPrometheus } from '../helpers/prometheus.js';
import { startStandInRelayer, type StandInRelayer } from '../helpers/stand-in-relayer.js';
import { startStore } from '../helpers/store.js';
import { listenApp } from '../helpers/write-support.js';

const KEY = 'm'.repeat(40);
/** prom-client's libuv requests in flight, by type: a series only while one is in flight (a file read, a DNS lookup). */
const MOMENTARY = new Set(['nodejs_active_requests']);
const RELAYER_KEY = 'relayer-key-0123456789abcdef';
const PATH_KEY = 'abcdef0123456789abcdef01';

/** Every family netcfg itself exports, each of which must have a series in this setup. */
const NETCFG_FAMILIES = [
  'netcfg_http_requests_total',
  'netcfg_http_request_duration_seconds',
  'netcfg_networks_served',
  'netcfg_invalid_files',
  'netcfg_ready',
  'netcfg_degraded',
  'netcfg_watcher_events_total',
  'netcfg_writes_total',
  'netcfg_write_retries_total',
  'netcfg_git_behind_commits',
  'netcfg_git_ahead_writes',
  'netcfg_git_last_pull_age_seconds',
  'netcfg_git_last_push_age_seconds',
  'netcfg_git_pulls_total',
  'netcfg_git_pull_failures_total',
  'netcfg_git_push_failures_total',
  'netcfg_git_push_duration_seconds',
  'netcfg_rpc_url_status',
  'netcfg_rpc_url_latency_seconds',
  'netcfg_rpc_url_head_lag_blocks',
  'netcfg_relayer_state',
  'netcfg_relayer_networks',
  'netcfg_relayer_patches_sent_total',
  'netcfg_relayer_last_pass_age_seconds',
  'netcfg_relayer_lease_held',
];
const AUTO_HEAL_FAMILIES = [
  'netcfg_rpc_auto_disabled_total',
  'netcfg_rpc_auto_restored_total',
  'netcfg_rpc_auto_skipped_total',
  'netcfg_rpc_auto_disabled_urls',
];

describe('metrics on the built server: promtool, and a real Prometheus scraping it (loopback)', function () {
  this.timeout(60_000);
  let rpc: FakeRpc;
  let remote: GitRemote;
  let relayer: StandInRelayer;
  let server: ChildServer;
  let store: NetworkStore;
  let healRoot: string;
  let healApp: { url: string; close(): Promise<void> };

  const scrape = async (): Promise<string> => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).to.equal(200);
    return res.text();
  };

  before(async () => {
    rpc = await startFakeRpc({ eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } });
    const files = {
      'evm/sepolia.yaml': networkYaml({ rpc_urls: [`${rpc.url}v2/${PATH_KEY}`, rpc.url] }),
      'evm/holesky.yaml': networkYaml({ rpc_urls: [rpc.url] }),
    };
    remote = await startGitRemote(files);
    const folder = path.join(cloneOf(remote, 'replica'), 'config', 'networks');
    relayer = await startStandInRelayer(
      RELAYER_KEY,
      ['evm:sepolia', 'evm:holesky'].map((id) => ({
        id,
        rpc_urls: [{ url: 'https://drifted.example.com', weight: 100 }],
      })),
    );
    const targets = path.join(remote.dir, 'relayers.yaml');
    writeFileSync(targets, `relayers:\n  - name: relayer-eu\n    url: ${relayer.url}\n    api_key_env: RELAYER_KEY\n`);
    server = await startChild(
      {
        CONFIG_DIR: folder,
        API_KEY: KEY,
        GIT_SYNC: 'true',
        GIT_SYNC_INTERVAL_MS: '500',
        RPC_PROBE_INTERVAL_MS: '1000',
        RELAYER_SYNC_FILE: targets,
        RELAYER_SYNC_INTERVAL_MS: '500',
        RELAYER_KEY,
      },
      { deadlineMs: 20_000 },
    );
    const patched = await fetch(`${server.url}/api/v1/networks/evm:holesky`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rpc_urls: [rpc.url, 'https://backup.example.com'] }),
    });
    expect(patched.status, 'a PATCH pushed').to.equal(200);
    // Every family has a series once the prober has probed, the relayer was set back and the push is timed.
    await within(
      (async () => {
        for (;;) {
          const samples = parseExposition(await scrape());
          if (NETCFG_FAMILIES.every((f) => samples.some((s) => s.name === f || s.name === `${f}_count`))) return;
          await new Promise((r) => setTimeout(r, 100));
        }
      })(),
      20_000,
      'every netcfg family with a series',
    );
    healRoot = makeConfigDir(standardFiles());
    store = await startStore(healRoot);
    const heal = { counts: () => ({ disabled: 2, restored: 1, skipped: { hourly_cap: 3 } }), disabledNow: () => 1 };
    healApp = await listenApp(createApp(store, { metrics: new Metrics({ store, autoHeal: heal }) }));
  });
  after(async () => {
    await healApp?.close();
    await store?.close();
    if (healRoot) removeDir(healRoot);
    await server?.stop();
    await relayer?.close();
    await remote?.stop();
    if (remote) rmSync(remote.dir, { recursive: true, force: true });
    await rpc?.close();
  });

  it('(a) its output passes `promtool check metrics` with no finding at all', async () => {
    const text = await scrape();
    const { code, problems } = await promtoolCheck(text);
    expect(problems, text.slice(0, 3000)).to.deep.equal([]);
    expect(code, 'promtool passes').to.equal(0);
    const self = await promtoolCheck(await (await fetch(`${healApp.url}/metrics`)).text());
    expect(self.problems, 'the self-healing families too').to.deep.equal([]);
    expect(text, 'no key').to.not.include(PATH_KEY).and.not.include(KEY).and.not.include(RELAYER_KEY);
  });

  it('(a) a check that can fail: promtool refuses a broken exposition', async () => {
    const { code, problems } = await promtoolCheck('# TYPE netcfg_broken counter\nnetcfg_broken{a="1" 2\n');
    expect(code).to.not.equal(0);
    expect(problems.join('\n')).to.match(/error|unexpected|invalid/i);
  });

  it('(b) a real Prometheus scraping it every 200 ms answers a query for every family, then is stopped', async () => {
    const families = familiesOf(await scrape());
    const samples = parseExposition(await scrape());
    // Every family with a series on the server (prom-client's default ones too), and netcfg's own all. Not those
    // with a series only at some moments: a scrape holds them or not, so Prometheus may never store one.
    const wanted = [...families]
      .filter(([name]) => !MOMENTARY.has(name))
      .filter(([name]) => samples.some((s) => s.name === name || s.name === `${name}_count`))
      .map(([name, type]) => ({ job: 'netcfg', name, query: type === 'histogram' ? `${name}_count` : name }));
    for (const name of NETCFG_FAMILIES)
      expect(
        wanted.map((w) => w.name),
        name,
      ).to.include(name);
    wanted.push(...AUTO_HEAL_FAMILIES.map((name) => ({ job: 'netcfg-auto-heal', name, query: name })));
    const prometheus = await startPrometheus([
      { job: 'netcfg', address: new URL(server.url).host, token: KEY },
      { job: 'netcfg-auto-heal', address: new URL(healApp.url).host },
    ]);
    try {
      let left = wanted.map((w) => w.name);
      const missing = await within(
        (async () => {
          for (;;) {
            const now: string[] = [];
            for (const { job, name, query } of wanted)
              if ((await prometheus.query(`${query}{job="${job}"}`)).length === 0) now.push(name);
            left = now;
            if (left.length === 0) return left;
            await new Promise((r) => setTimeout(r, 200));
          }
        })(),
        30_000,
        `Prometheus answering for all ${wanted.length} families`,
      ).catch(async (err: Error) => {
        const up = await prometheus.query('up').catch(() => []);
        throw new Error(`${err.message}; still missing: ${left.join(', ')}; up: ${JSON.stringify(up)}`);
      });
      expect(missing).to.deep.equal([]);
      expect((await prometheus.query('up')).map((r) => [r.metric.job, r.value]).sort()).to.deep.equal([
        ['netcfg', 1],
        ['netcfg-auto-heal', 1],
      ]);
      const status = await prometheus.query('netcfg_rpc_url_status{job="netcfg",network="evm:sepolia"}');
      expect(status.map((r) => [r.metric.url, r.metric.status]).sort()).to.deep.equal(
        [
          [rpc.url, 'ok'],
          [`${rpc.url}v2/***`, 'ok'],
        ].sort(),
      );
      expect((await prometheus.query('netcfg_rpc_auto_skipped_total{reason="hourly_cap"}'))[0]?.value).to.equal(3);
    } finally {
      await prometheus.stop();
    }
  });
});
