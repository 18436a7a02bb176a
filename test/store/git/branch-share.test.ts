/**
 * BranchShare: when a replica pushing back-to-back leaves the remote branch alone, and for how long.
 * The pauses are recorded, not slept: a table of push sequences and the pauses they lead to.
 */
import { expect } from 'chai';
import { BranchShare } from '../../../src/store/git/branch-share.js';

type Step = { push: number; more: boolean } | { rejected: number } | 'turn';

/** The pauses (in push times, jitter taken out) that `steps` lead to, one per turn that paused. */
async function pausesOf(steps: Step[]): Promise<number[]> {
  const pauses: number[] = [];
  let pushMs = 0;
  const share = new BranchShare(async (ms) => pauses.push(Math.round(ms / pushMs)));
  for (const step of steps) {
    if (step === 'turn') await share.turn();
    else if ('push' in step) share.pushed((pushMs = step.push), step.more);
    else share.rejected((pushMs = step.rejected));
  }
  return pauses;
}

const busy = (pushes: number): Step[] =>
  Array.from({ length: pushes }, (): Step[] => ['turn', { push: 100, more: true }]).flat();

// The pause is 4 push times, jittered by +-25%; each row's expectation is in the jitter's bounds.
const within = (pause: number, pushes: number): boolean => pause >= pushes * 0.75 && pause <= pushes * 1.25;

const CASES: Array<{ name: string; steps: Step[]; pauses: number[] }> = [
  { name: 'a few pushes in a row: no pause', steps: busy(9), pauses: [] },
  {
    name: 'a busy spell: each pause twice the one before, up to 8 times the first',
    steps: busy(60),
    pauses: [4, 8, 16, 32, 32],
  },
  {
    name: 'a spell that ends starts the next one at the first pause',
    steps: [...busy(30), { push: 100, more: false }, ...busy(11)],
    pauses: [4, 8, 4],
  },
  {
    name: 'contended (a push of ours was rejected): a short pause every 2 pushes, never growing',
    steps: [...busy(25), { rejected: 100 }, ...busy(9)],
    pauses: [4, 8, 4, 4, 4, 4, 4],
  },
];

describe('store/git/branch-share: pauses that let a slower replica in', () => {
  for (const row of CASES) {
    it(row.name, async () => {
      const pauses = await pausesOf(row.steps);
      expect(pauses.length, JSON.stringify(pauses)).to.equal(row.pauses.length);
      pauses.forEach((p, i) => expect(within(p, row.pauses[i] as number), `${p} vs ${row.pauses[i]}`).to.equal(true));
    });
  }
});
