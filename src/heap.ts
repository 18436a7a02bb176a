/**
 * One full, compacting GC once the first load of a large folder is in, so the server starts
 * serving with a heap that holds what it keeps and not what the load left behind.
 *
 * Why: every scavenge (one per ~150 read requests) walks the list of the old generation's
 * 256 KiB pages, and the walk costs per page, whatever the page holds (perf: 9.1% of the user-mode
 * CPU samples of a 100,000-network server under list requests, against 1.1% at 1,000 networks,
 * in ScavengerCollector::CollectGarbage itself). At 100,000 networks the load leaves ~130 MB of
 * garbage among the ~65 MB it keeps (~55 MB of it the bodies the pack replaced), ~600 pages
 * where ~200 do. V8 collects it at its next full GC, which comes when allocation reaches the old
 * generation's limit: a server that only reads had not got there 66 s after ready, nor through
 * its first ~15 s of reads (bench/README.md, session of 2026-11-24).
 *
 * Only for a large heap: that is where the gain was measured; at 1,000 networks the pages are few.
 * (A/Bs of a build that ran this GC at 1,000 networks once read it 12-13% slower: the GC had taken
 * the maps of Node's tick objects, which tick-shape.ts now keeps alive.) Node has no API for a
 * GC; this is the way Jest's leak detector gets one.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Below this much heap in use, the first load is left to V8's own GCs. */
export const SETTLE_FROM_BYTES = 64 * 1024 * 1024;

export interface Settled {
  beforeBytes: number;
  afterBytes: number;
  ms: number;
}

/** A compacting full GC when the heap holds at least `fromBytes`; null when it holds less. */
export function settleHeap(fromBytes = SETTLE_FROM_BYTES): Settled | null {
  const beforeBytes = v8.getHeapStatistics().used_heap_size;
  if (beforeBytes < fromBytes) return null;
  const started = performance.now();
  const gc = fullGc();
  // Without compaction the GC frees the garbage's bytes but keeps nearly every page: each holds
  // some of what the index keeps.
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
  return { beforeBytes, afterBytes: v8.getHeapStatistics().used_heap_size, ms: performance.now() - started };
}

/** V8's full GC: the process's own when it runs with --expose-gc, else one from a new context. */
export function fullGc(): () => void {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as () => void;
  v8.setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    v8.setFlagsFromString('--no-expose-gc'); // contexts made later get no `gc`
  }
}
