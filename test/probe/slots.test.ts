/**
 * Slots, the bound on probes in flight, with PATCH_PROBES' own numbers: calls that never end on
 * their own (each ended by the test), so what runs at each step is exact, not a race.
 */
import { setImmediate as settle } from 'node:timers/promises';
import { expect } from 'chai';
import { PATCH_PROBES } from '../../src/probe/url-check.js';
import { Slots } from '../../src/probe/slots.js';

interface Call {
  patch: number;
  url: number;
  end(): void;
}

/** `urls[p]` calls for PATCH p, each PATCH within its own `each` slots of one shared `total`. */
function start(urls: number[], bounds: { each: number; total: number }): { running: Call[]; done: Promise<unknown> } {
  const all = new Slots(bounds.total);
  const running: Call[] = [];
  const calls = urls.flatMap((n, patch) => {
    const mine = all.within(bounds.each);
    return Array.from({ length: n }, (_, url) =>
      mine.run(
        () =>
          new Promise<void>((resolve) => {
            const call: Call = { patch, url, end: () => (running.splice(running.indexOf(call), 1), resolve()) };
            running.push(call);
          }),
      ),
    );
  });
  return { running, done: Promise.all(calls) };
}

const perPatch = (running: Call[]): number[] =>
  running.reduce<number[]>((counts, c) => ((counts[c.patch] = (counts[c.patch] ?? 0) + 1), counts), []);

describe("probe/slots: the bound on a PATCH's probes in flight", () => {
  it(`PATCH_PROBES: ${PATCH_PROBES.each} per PATCH, ${PATCH_PROBES.total} over all PATCHes`, async () => {
    const { each, total } = PATCH_PROBES;
    const patches = total / each + 1; // one PATCH more than the total lets through at full width
    const { running, done } = start(new Array<number>(patches).fill(each + 2), PATCH_PROBES);
    await settle();
    expect(running).to.have.length(total);
    expect(perPatch(running)).to.deep.equal(new Array<number>(patches - 1).fill(each));
    // A freed slot goes to the PATCH that waited longest for one: the last PATCH, not the first one's next URL.
    running.find((c) => c.patch === 0)?.end();
    await settle();
    expect(running).to.have.length(total);
    expect(perPatch(running)[patches - 1]).to.equal(1);
    expect(perPatch(running)[0]).to.equal(each - 1);
    while (running.length > 0) {
      for (const c of [...running]) c.end();
      await settle();
      expect(running.length).to.be.at.most(total);
      for (const n of perPatch(running)) expect(n ?? 0).to.be.at.most(each);
    }
    await done;
  });

  const rows: Array<{ name: string; urls: number[]; each: number; total: number; first: number[] }> = [
    { name: 'one PATCH alone: its own bound', urls: [5], each: 2, total: 10, first: [2] },
    { name: 'two PATCHes under the total: each at its own bound', urls: [5, 5], each: 2, total: 10, first: [2, 2] },
    { name: 'the total reached: later PATCHes wait for it', urls: [3, 3, 3], each: 2, total: 3, first: [2, 1] },
  ];
  for (const row of rows) {
    it(`${row.name}: ${row.first.join(' + ')} in flight at first, all done in the end`, async () => {
      const { running, done } = start(row.urls, row);
      await settle();
      expect(perPatch(running)).to.deep.equal(row.first);
      while (running.length > 0) {
        running[0]?.end();
        await settle();
      }
      await done;
    });
  }
});
