/**
 * The live prober's families, on a real store and prober against fake JSON-RPC endpoints on
 * loopback, scraped through the app on a real port: a table of URLs of one network, each with the
 * `url` label it must carry (redacted: no key; a secret's value masked), its status, and whether
 * it has a latency and a head lag. Then a network that leaves the folder leaves the output. And the
 * self-healing's families from a view of the exact shape src/metrics/ names (the self-healing itself
 * is built elsewhere; a stand-in holds counts as it would), read anew at every scrape.
 */
import { unlinkSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { Metrics, type AutoHealCounts } from '../../src/metrics/metrics.js';
import { LiveProber, jobsOf, type RpcHealthChange } from '../../src/probe/live-prober.js';
import { DEFAULT_PROBER, Prober } from '../../src/probe/prober.js';
import { revealedNetworkOf } from '../../src/store/network-record.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { within } from '../helpers/deadline.js';
import { familiesOf, samplesOf, valueOf } from '../helpers/exposition.js';
import { startFakeRpc, type Answer, type FakeRpc } from '../helpers/fake-rpc.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../helpers/fixtures.js';
import { nextChange, startStore } from '../helpers/store.js';
import { listenApp } from '../helpers/write-support.js';
import { allowEvery } from '../helpers/secret-lookup.js';

const SEPOLIA: Record<string, Answer> = { eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } };
const KEY_A = 'abcdef0123456789abcdef01';
const KEY_B = 'fedcba9876543210fedcba98';
const SECRET_KEY = 'Kx9aQ2';

interface UrlCase {
  name: string;
  /** The URL in the file (`{secret}` for the secret reference's value). */
  url: (f: Record<string, FakeRpc>) => string;
  label: (f: Record<string, FakeRpc>) => string;
  status: string;
  latency: boolean;
  lag: number | null;
}

const CASES: UrlCase[] = [
  {
    name: 'a key in the path is redacted',
    url: (f) => `${f.good!.url}v2/${KEY_A}`,
    label: (f) => `${f.good!.url}v2/***`,
    status: 'ok',
    latency: true,
    lag: 0,
  },
  {
    name: 'a second key on the same host: its own series, #2',
    url: (f) => `${f.good!.url}v2/${KEY_B}`,
    label: (f) => `${f.good!.url}v2/***#2`,
    status: 'ok',
    latency: true,
    lag: 0,
  },
  {
    name: 'a key in the query is redacted',
    url: (f) => `${f.behind!.url}?apikey=${KEY_A}`,
    label: (f) => `${f.behind!.url}?apikey=***`,
    status: 'ok',
    latency: true,
    lag: 4,
  },
  {
    name: 'another chain',
    url: (f) => f.mainnet!.url,
    label: (f) => f.mainnet!.url,
    status: 'wrong_chain',
    latency: true,
    lag: null,
  },
  {
    name: 'nothing listening',
    url: () => 'http://127.0.0.1:9/',
    label: () => 'http://127.0.0.1:9/',
    status: 'unreachable',
    latency: false,
    lag: null,
  },
  {
    name: "a secret reference: its value masked, the prober's own mask",
    url: () => '{secret}',
    label: (f) => `${f.good!.url}v2/***#3`,
    status: 'ok',
    latency: true,
    lag: 0,
  },
];

describe('metrics: the live prober per network and URL (fake endpoints on loopback)', function () {
  this.timeout(20_000);
  let root: string;
  let store: NetworkStore;
  let live: LiveProber;
  let app: { url: string; close(): Promise<void> };
  const fakes: Record<string, FakeRpc> = {};

  before(async () => {
    const good = (fakes.good = await startFakeRpc(SEPOLIA));
    fakes.behind = await startFakeRpc({ ...SEPOLIA, eth_blockNumber: { result: '0x60' } });
    fakes.mainnet = await startFakeRpc({ ...SEPOLIA, eth_chainId: { result: '0x1' } });
    const urls = CASES.map((c) =>
      c.url(fakes) === '{secret}' ? { type: 'env', value: 'SEPOLIA_SECRET' } : c.url(fakes),
    );
    const yaml = [
      'rpc_urls:',
      ...urls.map((u) => (typeof u === 'string' ? `  - ${u}` : `  - type: env\n    value: ${u.value}`)),
      'chain_id: 11155111',
      '',
    ].join('\n');
    root = makeConfigDir({ 'evm/sepolia.yaml': yaml, 'evm/other.yaml': networkYaml({ rpc_urls: [good.url] }) });
    const secrets = allowEvery({ SEPOLIA_SECRET: `${good.url}v2/${SECRET_KEY}` });
    store = await startStore(root, { policy: { blockPrivate: false, allowedHosts: [], secrets } });
    live = new LiveProber(
      new Prober({ ...DEFAULT_PROBER, timeoutMs: 1000 }),
      () => jobsOf(store.ids().map((id) => ({ id, fields: revealedNetworkOf(store.get(id)) }))),
      300,
    );
    app = await listenApp(createApp(store, { rpcHealth: live, metrics: new Metrics({ store, prober: live }) }));
    const probed = new Set<string>();
    const all = new Promise<void>((resolve) =>
      live.onChange(
        (c: RpcHealthChange) => (probed.add(`${c.id} ${c.index}`), probed.size === CASES.length + 1 && resolve()),
      ),
    );
    live.start();
    await within(all, 10_000, 'every URL probed once');
  });
  after(async () => {
    await app.close();
    await live.close();
    await store.close();
    removeDir(root);
    await Promise.all(Object.values(fakes).map((f) => f.close()));
  });

  const scrape = async (): Promise<string> => (await fetch(`${app.url}/metrics`)).text();

  for (const c of CASES) {
    it(`${c.name}: ${c.status}`, async () => {
      const text = await scrape();
      const labels = { network: 'evm:sepolia', url: c.label(fakes) };
      const mine = (name: string) =>
        samplesOf(text, name).filter((s) => s.labels.network === labels.network && s.labels.url === labels.url);
      expect(
        mine('netcfg_rpc_url_status').map((s) => [s.labels.status, s.value]),
        text
          .split('\n')
          .filter((l) => l.includes('rpc_url_status'))
          .join('\n'),
      ).to.deep.equal([[c.status, 1]]);
      expect(mine('netcfg_rpc_url_latency_seconds').length, 'a latency series').to.equal(c.latency ? 1 : 0);
      if (c.latency) expect(mine('netcfg_rpc_url_latency_seconds')[0]!.value).to.be.at.least(0).and.below(1);
      expect(mine('netcfg_rpc_url_head_lag_blocks').map((s) => s.value)).to.deep.equal(c.lag === null ? [] : [c.lag]);
      for (const key of [KEY_A, KEY_B, SECRET_KEY]) expect(text, 'no key anywhere').to.not.include(key);
    });
  }

  it('one status series per URL, and a network gone from the folder leaves the output', async () => {
    const before = await scrape();
    expect(samplesOf(before, 'netcfg_rpc_url_status').length).to.equal(CASES.length + 1);
    const gone = nextChange(store, (c) => c.id === 'evm:other' && c.kind === 'deleted');
    unlinkSync(path.join(root, 'evm', 'other.yaml'));
    await gone;
    // The prober forgets a network at the end of its next round (300 ms here): scraped until then, with a deadline.
    await within(
      (async () => {
        while (samplesOf(await scrape(), 'netcfg_rpc_url_status').some((s) => s.labels.network === 'evm:other'))
          await new Promise((r) => setTimeout(r, 50));
      })(),
      5000,
      'evm:other gone from the metrics',
    );
    expect(samplesOf(await scrape(), 'netcfg_rpc_url_status').length).to.equal(CASES.length);
  });
});

/** Counts as the self-healing keeps them, changed by the test between scrapes. */
class StandInHeal implements AutoHealCounts {
  tally = { disabled: 0, restored: 0, skipped: {} as Record<string, number> };
  now = 0;
  counts(): { disabled: number; restored: number; skipped: Record<string, number> } {
    return { ...this.tally, skipped: { ...this.tally.skipped } };
  }
  disabledNow(): number {
    return this.now;
  }
}

interface HealCase {
  name: string;
  set: (heal: StandInHeal) => void;
  samples: { disabled: number; restored: number; skipped: Record<string, number>; now: number };
}

const HEAL_CASES: HealCase[] = [
  { name: 'nothing happened yet', set: () => undefined, samples: { disabled: 0, restored: 0, skipped: {}, now: 0 } },
  {
    name: 'two URLs disabled, standing',
    set: (h) => ((h.tally.disabled = 2), (h.now = 2)),
    samples: { disabled: 2, restored: 0, skipped: {}, now: 2 },
  },
  {
    name: 'one restored since',
    set: (h) => ((h.tally.restored = 1), (h.now = 1)),
    samples: { disabled: 2, restored: 1, skipped: {}, now: 1 },
  },
  {
    name: 'changes skipped by two guards',
    set: (h) => (h.tally.skipped = { last_url: 1, hourly_cap: 18 }),
    samples: { disabled: 2, restored: 1, skipped: { last_url: 1, hourly_cap: 18 }, now: 1 },
  },
];

describe('metrics: the self-healing, from its view (real port)', () => {
  let root: string;
  let store: NetworkStore;
  before(async () => {
    root = makeConfigDir(standardFiles());
    store = await startStore(root);
  });
  after(async () => {
    await store.close();
    removeDir(root);
  });

  it('reads the view anew at each scrape: case by case, in order', async () => {
    const heal = new StandInHeal();
    const app = await listenApp(createApp(store, { metrics: new Metrics({ store, autoHeal: heal }) }));
    try {
      for (const { name, set, samples } of HEAL_CASES) {
        set(heal);
        const text = await (await fetch(`${app.url}/metrics`)).text();
        expect(
          [
            valueOf(text, 'netcfg_rpc_auto_disabled_total'),
            valueOf(text, 'netcfg_rpc_auto_restored_total'),
            valueOf(text, 'netcfg_rpc_auto_disabled_urls'),
          ],
          name,
        ).to.deep.equal([samples.disabled, samples.restored, samples.now]);
        const skipped = Object.fromEntries(
          samplesOf(text, 'netcfg_rpc_auto_skipped_total').map((s) => [s.labels.reason, s.value]),
        );
        expect(skipped, name).to.deep.equal(samples.skipped);
        expect(familiesOf(text).get('netcfg_rpc_auto_skipped_total'), 'a counter').to.equal('counter');
      }
    } finally {
      await app.close();
    }
  });

  it('without a view: no self-healing family', async () => {
    const app = await listenApp(createApp(store, { metrics: new Metrics({ store }) }));
    try {
      const text = await (await fetch(`${app.url}/metrics`)).text();
      expect([...familiesOf(text).keys()].filter((name) => name.startsWith('netcfg_rpc_auto'))).to.deep.equal([]);
    } finally {
      await app.close();
    }
  });
});
