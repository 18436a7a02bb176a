/**
 * The self-healing's families from a view of the exact shape src/metrics/auto-heal.ts names (the
 * self-healing itself is built elsewhere; this stand-in holds counts as it would), scraped through
 * the app on a real port: a table of counts and the samples each must show, read anew at every
 * scrape; without a view the families are not there at all.
 */
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { Metrics, type AutoHealView } from '../../src/metrics/metrics.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { familiesOf, samplesOf, valueOf } from '../helpers/exposition.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startStore } from '../helpers/store.js';
import { listenApp } from '../helpers/write-support.js';

/** Counts as the self-healing keeps them, changed by the test between scrapes. */
class StandInHeal implements AutoHealView {
  tally = { disabled: 0, restored: 0, skipped: {} as Record<string, number> };
  now = 0;
  counts(): { disabled: number; restored: number; skipped: Record<string, number> } {
    return { ...this.tally, skipped: { ...this.tally.skipped } };
  }
  disabledNow(): number {
    return this.now;
  }
}

interface Case {
  name: string;
  set: (heal: StandInHeal) => void;
  samples: { disabled: number; restored: number; skipped: Record<string, number>; now: number };
}

const CASES: Case[] = [
  { name: 'nothing happened yet', set: () => undefined, samples: { disabled: 0, restored: 0, skipped: {}, now: 0 } },
  { name: 'two URLs disabled, standing', set: (h) => ((h.tally.disabled = 2), (h.now = 2)), samples: { disabled: 2, restored: 0, skipped: {}, now: 2 } },
  { name: 'one restored since', set: (h) => ((h.tally.restored = 1), (h.now = 1)), samples: { disabled: 2, restored: 1, skipped: {}, now: 1 } },
  { name: 'changes skipped by two guards', set: (h) => (h.tally.skipped = { last_url: 1, hourly_cap: 18 }), samples: { disabled: 2, restored: 1, skipped: { last_url: 1, hourly_cap: 18 }, now: 1 } },
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
      for (const { name, set, samples } of CASES) {
        set(heal);
        const text = await (await fetch(`${app.url}/metrics`)).text();
        expect([valueOf(text, 'netcfg_rpc_auto_disabled_total'), valueOf(text, 'netcfg_rpc_auto_restored_total'), valueOf(text, 'netcfg_rpc_auto_disabled_urls')], name).to.deep.equal([samples.disabled, samples.restored, samples.now]);
        const skipped = Object.fromEntries(samplesOf(text, 'netcfg_rpc_auto_skipped_total').map((s) => [s.labels.reason, s.value]));
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
