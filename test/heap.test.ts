/**
 * The one full collection after the first load (src/heap.ts): it frees what only a mark-compact
 * frees, and leaves no `gc` on the global object.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect } from 'chai';
import { collectLoadGarbage } from '../src/heap.js';

/** A WeakRef to an array nothing else holds, large enough to go straight to V8's large-object space (old generation). */
function unreachableLargeArray(): WeakRef<number[]> {
  return new WeakRef(new Array<number>(4_000_000).fill(1));
}

describe('heap: collectLoadGarbage', () => {
  it('frees an unreachable object of the old generation, which a scavenge never does', async () => {
    const ref = unreachableLargeArray();
    await nextTurn(); // a WeakRef keeps its target for the rest of the turn that made it
    expect(ref.deref(), 'still there before the collection').to.not.equal(undefined);
    await nextTurn();
    const collected = collectLoadGarbage();
    expect(ref.deref()).to.equal(undefined);
    expect(collected.afterMb).to.be.below(collected.beforeMb);
    expect((globalThis as { gc?: unknown }).gc).to.equal(undefined);
  });
});
