/**
 * The relayer sync's families, on a real store and sync against stand-in relayers on loopback
 * (test/helpers/stand-in-relayer.ts), scraped through the app on a real port: a table of relayers
 * (in step, one drifted value set back, one network missing, one refusing the fix, failing inside), each with the state it must
 * show, its networks by state and the PATCHes it was sent. Its name is the label; its URL and key never appear.
 */
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { RelayerSync } from '../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../src/relayer/sync/store-desired.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { within } from '../helpers/deadline.js';
import { samplesOf, valueOf } from '../helpers/exposition.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startStandInRelayer, type StandInNetwork, type StandInRelayer } from '../helpers/stand-in-relayer.js';
import { startStore } from '../helpers/store.js';
import { listenApp } from '../helpers/write-support.js';

const KEY = 'relayer-key-0123456789abcdef';
const FILES = {
  'evm/sepolia.yaml': networkYaml({ rpc_urls: ['https://sepolia-a.example.com'] }),
  'evm/holesky.yaml': networkYaml({ rpc_urls: ['https://holesky-a.example.com'] }),
};

interface Case {
  name: string;
  /** What the relayer holds, from what is served. */
  holds: (served: StandInNetwork[]) => StandInNetwork[];
  mode?: StandInRelayer['mode'];
  state: string;
  networks: Record<string, number>;
  patches: number;
  /** Findings opened by kind (the others 0). */
  findings: Record<string, number>;
}

const CASES: Case[] = [
  {
    name: 'in-step',
    holds: (s) => s,
    state: 'in_sync',
    networks: { in_sync: 2, drifted: 0, stale: 0, missing: 0, failing: 0, extra: 0 },
    findings: {},
    patches: 0,
  },
  {
    name: 'drifted-then-set-back',
    holds: (s) =>
      s.map((n) =>
        n.id === 'evm:sepolia' ? { ...n, rpc_urls: [{ url: 'https://drift.example.com', weight: 100 }] } : n,
      ),
    state: 'in_sync',
    networks: { in_sync: 2, drifted: 0, stale: 0, missing: 0, failing: 0, extra: 0 },
    findings: { drift: 1 },
    patches: 1,
  },
  {
    name: 'lacks-one',
    holds: (s) => [
      ...s.filter((n) => n.id !== 'evm:holesky'),
      { id: 'evm:only-here', rpc_urls: [{ url: 'https://x.example.com', weight: 100 }] },
    ],
    state: 'missing',
    networks: { in_sync: 1, drifted: 0, stale: 0, missing: 1, failing: 0, extra: 1 },
    findings: { missing: 1, extra: 1 },
    patches: 0,
  },
  {
    name: 'refuses-the-fix',
    holds: (s) =>
      s.map((n) =>
        n.id === 'evm:sepolia' ? { ...n, rpc_urls: [{ url: 'https://drift.example.com', weight: 100 }] } : n,
      ),
    mode: 'refuse-patch',
    state: 'failing',
    networks: { in_sync: 1, drifted: 0, stale: 0, missing: 0, failing: 1, extra: 0 },
    findings: { drift: 1, failing: 1 },
    patches: 1,
  },
  {
    name: 'broken-inside',
    holds: (s) => s,
    mode: 'error500',
    state: 'failing',
    networks: { in_sync: 2, drifted: 0, stale: 0, missing: 0, failing: 0, extra: 0 },
    findings: { failing: 1 },
    patches: 0,
  },
];

describe('metrics: the relayer sync per relayer (stand-in relayers on loopback)', function () {
  this.timeout(20_000);
  let root: string;
  let store: NetworkStore;
  let sync: RelayerSync;
  let app: { url: string; close(): Promise<void> };
  const relayers: StandInRelayer[] = [];

  before(async () => {
    root = makeConfigDir(FILES);
    store = await startStore(root);
    const served = store
      .ids()
      .sort()
      .map((id) => JSON.parse(store.get(id).body).data as StandInNetwork);
    for (const c of CASES) {
      const relayer = await startStandInRelayer(KEY, c.holds(served));
      relayer.mode = c.mode ?? 'normal';
      relayers.push(relayer);
    }
    const log = { info: () => undefined, warn: () => undefined };
    sync = new RelayerSync(
      CASES.map((c, i) => ({ name: c.name, url: relayers[i]!.url, apiKey: KEY, networks: null })),
      desiredFromStore(store),
      { intervalMs: 60_000, timeoutMs: 1000, maxBytes: 1 << 20, log },
    );
    app = await listenApp(createApp(store, { relayers: sync, metrics: new Metrics({ store, relayers: sync }) }));
    sync.start();
    await within(sync.passNow(), 10_000, 'a pass over every relayer');
    // The cases read the counts of this one pass with its PATCHes answered: the answers come after the pass ends, and
    // a refused PATCH is retried a second later, which a loaded host lets happen before a case reads. So the sync is
    // closed (it keeps its state and arms no timer) in the turn every relayer is seen in the state its answer leaves.
    const expected = new Map(CASES.map((c) => [c.name, c.state]));
    const settled = (): boolean => sync.status().every((s) => s.state === expected.get(s.name));
    const deadline = performance.now() + 10_000;
    while (!settled() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await sync.close();
  });
  after(async () => {
    await app.close();
    await sync.close();
    await Promise.all(relayers.map((r) => r.close()));
    await store.close();
    removeDir(root);
  });

  for (const c of CASES) {
    it(`${c.name}: ${c.state}, ${c.patches} PATCH(es)`, async () => {
      const text = await (await fetch(`${app.url}/metrics`)).text();
      const target = { target: c.name };
      expect(
        samplesOf(text, 'netcfg_relayer_state')
          .filter((s) => s.labels.target === c.name)
          .map((s) => [s.labels.state, s.value]),
      ).to.deep.equal([[c.state, 1]]);
      const networks = Object.fromEntries(
        samplesOf(text, 'netcfg_relayer_networks')
          .filter((s) => s.labels.target === c.name)
          .map((s) => [s.labels.state, s.value]),
      );
      expect(networks).to.deep.equal(c.networks);
      expect(valueOf(text, 'netcfg_relayer_patches_sent_total', target)).to.equal(c.patches);
      const age = valueOf(text, 'netcfg_relayer_last_pass_age_seconds', target);
      if (c.mode === 'error500') expect(age, 'never passed').to.equal(undefined);
      else expect(age).to.be.at.least(0).and.below(60);
      const stamp = valueOf(text, 'netcfg_relayer_last_pass_timestamp_seconds', target);
      if (c.mode === 'error500') expect(stamp, 'never passed').to.equal(undefined);
      else
        expect(Date.now() / 1000 - (stamp ?? 0))
          .to.be.at.least(0)
          .and.below(60);
      const findings = Object.fromEntries(
        samplesOf(text, 'netcfg_relayer_findings_total')
          .filter((s) => s.labels.target === c.name)
          .map((s) => [s.labels.kind, s.value]),
      );
      expect(findings).to.deep.equal({ drift: 0, stale: 0, missing: 0, extra: 0, failing: 0, ...c.findings });
      expect(text, 'no key').to.not.include(KEY);
      for (const r of relayers) expect(text, 'no relayer URL').to.not.include(`127.0.0.1:${r.port}`);
    });
  }
});
