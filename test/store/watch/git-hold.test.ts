/** Which networks' changes wait for git: while it rewrites the work tree, and never past MAX_MS for one change. */
import { expect } from 'chai';
import { GitHold, MAX_MS } from '../../../src/store/watch/git-hold.js';

describe('store/watch/git-hold', () => {
  const steps: Array<{ what: string; rewriting: boolean; at: number; id: string; holds: boolean; size: number }> = [
    { what: 'git idle', rewriting: false, at: 0, id: 'evm:a', holds: false, size: 0 },
    { what: 'git rewriting: held', rewriting: true, at: 0, id: 'evm:a', holds: true, size: 1 },
    { what: 'another id, held too', rewriting: true, at: 5, id: 'evm:b', holds: true, size: 2 },
    { what: 'still held just before the bound', rewriting: true, at: MAX_MS - 1, id: 'evm:a', holds: true, size: 2 },
    {
      what: 'let go at the bound (a lock a killed git left)',
      rewriting: true,
      at: MAX_MS,
      id: 'evm:a',
      holds: false,
      size: 1,
    },
    {
      what: 'past the bound, asked again under the same lock (the queue asks twice per look): still let go',
      rewriting: true,
      at: MAX_MS,
      id: 'evm:a',
      holds: false,
      size: 1,
    },
    { what: 'git done: let go', rewriting: false, at: MAX_MS + 1, id: 'evm:b', holds: false, size: 0 },
    { what: 'git again: a new wait starts', rewriting: true, at: MAX_MS + 2, id: 'evm:a', holds: true, size: 1 },
  ];
  it('holds while git rewrites, lets go when it is done or at the bound', () => {
    let rewriting = false;
    let now = 0;
    const hold = new GitHold(
      () => rewriting,
      () => now,
    );
    for (const s of steps) {
      [rewriting, now] = [s.rewriting, s.at];
      expect(hold.holds(s.id), s.what).to.equal(s.holds);
      expect(hold.size, s.what).to.equal(s.size);
    }
  });

  const told: Array<{ what: string; rewriting: boolean; id: string; done: number }> = [
    { what: 'git idle, nothing waited', rewriting: false, id: 'evm:a', done: 0 },
    { what: 'git rewriting: a change waits', rewriting: true, id: 'evm:a', done: 0 },
    { what: 'another change waits', rewriting: true, id: 'evm:b', done: 0 },
    { what: 'git done: told once, for every network', rewriting: false, id: 'evm:a', done: 1 },
    { what: 'asked again with git idle: not told again', rewriting: false, id: 'evm:b', done: 1 },
    { what: 'git again', rewriting: true, id: 'evm:a', done: 1 },
    { what: 'done again: told again', rewriting: false, id: 'evm:a', done: 2 },
  ];
  it('tells once git is done after a change waited for it (the look at the whole folder), and only then', () => {
    let rewriting = false;
    let done = 0;
    const hold = new GitHold(
      () => rewriting,
      () => 0,
      () => done++,
    );
    for (const s of told) {
      rewriting = s.rewriting;
      hold.holds(s.id);
      expect(done, s.what).to.equal(s.done);
    }
  });
});
