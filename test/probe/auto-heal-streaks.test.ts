/**
 * AutoHeal's count of verdicts in a row, as a table: probes with their own times, against a
 * network held in memory behind the HealStore contract (what main wires to the store; the
 * built-server tests in auto-heal.test.ts drive the store itself).
 */
import { expect } from 'chai';
import { AutoHeal } from '../../src/probe/auto-heal.js';
import type { HealStore } from '../../src/probe/heal-store.js';
import type { NetworkProbe } from '../../src/probe/live-prober.js';

const A = 'https://a.example.com';
const B = 'https://b.example.com';
type Verdict = [status: string, atSeconds: number, etag?: string, url?: string];

function probeOf(verdicts: Verdict): NetworkProbe {
  const [status, at, , url] = verdicts;
  const health = {
    url: url ?? B,
    status: status as 'ok',
    head: null,
    lag: null,
    latency_ms: null,
    checked_at: new Date(at * 1000).toISOString(),
    error: status === 'ok' ? null : 'it said so',
  };
  return { id: 'evm:x', results: [{ ...health, index: 1 }] };
}

describe('probe/auto-heal: verdicts in a row (3 probes over 60 s)', () => {
  const cases: Array<[string, Verdict[], number]> = [
    [
      'three unreachable over 60 s: disabled',
      [
        ['unreachable', 0],
        ['unreachable', 30],
        ['unreachable', 60],
      ],
      1,
    ],
    [
      'three over 59 s: not yet',
      [
        ['unreachable', 0],
        ['unreachable', 30],
        ['unreachable', 59],
      ],
      0,
    ],
    [
      'two over 90 s: not yet',
      [
        ['unreachable', 0],
        ['unreachable', 90],
      ],
      0,
    ],
    [
      'wrong_chain counts as unreachable does',
      [
        ['wrong_chain', 0],
        ['unreachable', 30],
        ['wrong_chain', 60],
      ],
      1,
    ],
    [
      'lagging between starts again',
      [
        ['unreachable', 0],
        ['lagging', 30],
        ['unreachable', 60],
        ['unreachable', 90],
      ],
      0,
    ],
    [
      'an ok between starts again',
      [
        ['unreachable', 0],
        ['ok', 30],
        ['unreachable', 60],
        ['unreachable', 90],
      ],
      0,
    ],
    [
      'the file changed between verdicts starts again',
      [
        ['unreachable', 0, 'v1'],
        ['unreachable', 30, 'v2'],
        ['unreachable', 60, 'v2'],
      ],
      0,
    ],
    [
      'a probe of a URL no longer at that place is not counted',
      [
        ['unreachable', 0],
        ['unreachable', 30, undefined, 'https://c.example.com'],
        ['unreachable', 60],
      ],
      0,
    ],
  ];
  for (const [what, verdicts, writes] of cases) {
    it(what, async () => {
      let etag = 'v1';
      const written: unknown[] = [];
      const target: HealStore = {
        network: () => ({
          etag,
          served: [
            { url: A, weight: 100 },
            { url: B, weight: 50 },
          ],
          written: [A, { url: B, weight: 50 }],
        }),
        invalid: () => false,
        write: async (_id, urls, ifMatch, note) => (written.push({ urls, ifMatch, note }), 'written'),
        notes: async () => [],
      };
      const heal = new AutoHeal(
        target,
        { probes: 3, spanMs: 60_000, maxPerHour: 10 },
        { info: () => undefined, warn: () => undefined },
      );
      for (const verdict of verdicts) {
        etag = verdict[2] ?? etag;
        heal.heard(probeOf(verdict));
      }
      await heal.settled();
      expect(written, what).to.have.length(writes);
      if (writes > 0) expect(written[0]).to.deep.include({ urls: [A, { url: B, weight: 0 }], ifMatch: 'v1' });
    });
  }

  it('a file invalid now (its last good version served) is left alone', async () => {
    const written: unknown[] = [];
    const skipped: string[] = [];
    const target: HealStore = {
      network: () => ({
        etag: 'v1',
        served: [
          { url: A, weight: 100 },
          { url: B, weight: 50 },
        ],
        written: [A, { url: B, weight: 50 }],
      }),
      invalid: () => true,
      write: async (_id, urls) => (written.push(urls), 'written'),
      notes: async () => [],
    };
    const heal = new AutoHeal(
      target,
      { probes: 2, spanMs: 0, maxPerHour: 10 },
      { info: () => undefined, warn: (f) => skipped.push((f as { reason: string }).reason) },
    );
    for (const at of [0, 30]) heal.heard(probeOf(['unreachable', at]));
    await heal.settled();
    expect(written).to.deep.equal([]);
    expect(skipped).to.deep.equal(['invalid_file']);
    expect(heal.counts().skipped).to.deep.equal({ invalid_file: 1 });
  });

  it('close() waits for the change under way, and a verdict heard after it changes nothing', async () => {
    const written: unknown[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const target: HealStore = {
      network: () => ({
        etag: 'v1',
        served: [
          { url: A, weight: 100 },
          { url: B, weight: 50 },
        ],
        written: [A, { url: B, weight: 50 }],
      }),
      invalid: () => false,
      write: async (_id, urls) => (await gate, written.push(urls), 'written'),
      notes: async () => [],
    };
    const heal = new AutoHeal(
      target,
      { probes: 1, spanMs: 0, maxPerHour: 10 },
      { info: () => undefined, warn: () => undefined },
    );
    heal.heard(probeOf(['unreachable', 0]));
    let closed = false;
    const closing = heal.close().then(() => (closed = true));
    heal.heard({ id: 'evm:x', results: [{ ...probeOf(['unreachable', 30]).results[0]!, index: 0, url: A }] });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(closed, 'close waits for the write in flight').to.equal(false);
    release();
    await closing;
    expect(written, 'only the change heard before close').to.have.length(1);
  });
});
