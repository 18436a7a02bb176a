/**
 * settleHeap(): one compacting full GC, only when the heap is large. What it is for is fewer old
 * generation pages for every scavenge to walk, so that is what is checked: the pages themselves
 * (space_size), not only the bytes in use, which a GC without compaction frees too.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { settleHeap } from '../src/heap.js';

function oldSpace(): v8.HeapSpaceInfo {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space') as v8.HeapSpaceInfo;
}

/** Old-generation pages, each keeping a little: one string in 50 of `total` survives this call. */
function fragmentedGarbage(total: number): string[] {
  const all: string[] = [];
  for (let i = 0; i < total; i++) all.push(`garbage-${i}-${'x'.repeat(i % 40)}`);
  // Many scavenges have passed while `all` grew: its strings are in the old generation.
  return all.filter((_, i) => i % 50 === 0);
}

describe('heap: settleHeap', () => {
  it('leaves a heap smaller than its threshold alone', () => {
    const used = v8.getHeapStatistics().used_heap_size;
    expect(settleHeap(used * 4 + 1e9)).to.equal(null);
  });

  it('hands back the old generation pages that held only garbage and a few survivors', () => {
    const keep = fragmentedGarbage(2_000_000);
    const before = oldSpace();
    const settled = settleHeap(0);
    const after = oldSpace();
    expect(settled).to.not.equal(null);
    expect(settled!.afterBytes).to.be.below(settled!.beforeBytes);
    // ~40 MB of old space held 1 survivor in 50: compaction moves them into a few pages.
    expect(before.space_size - after.space_size).to.be.at.least(20e6);
    expect(keep[keep.length - 1]).to.match(/^garbage-1999950-/);
  });

  it('exposes no gc() to contexts made afterwards', () => {
    settleHeap(0);
    expect(runInNewContext('typeof gc')).to.equal('undefined');
  });
});
