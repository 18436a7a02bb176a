/**
 * One full, compacting GC once the first load of a large folder is in, so the server starts
 * serving with a heap that holds what it keeps and not what the load left behind.
 *
 * Why: every scavenge (one per ~150 read requests) walks the list of the old generation's
 * 256 KiB pages, and the walk costs per page, whatever the page holds (perf: 9.1% of the
 * server's CPU at 100,000 networks against 1.1% at 1,000, in ScavengerCollector::CollectGarbage
 * itself). At 100,000 networks the load leaves ~90 MB of garbage among what it keeps (the bodies
 * the pack replaced, the folder listing, the first stat of every file), ~600 pages where ~200 do.
 * V8 collects it at its next full GC, which comes when allocation reaches the old generation's
 * limit: for a server that only reads, that can be hours (bench/README.md, session 19).
 *
 * Only for a large heap: at 1,000 networks there is little to gain, and a full GC before the
 * first request left request handling slower afterwards in three A/Bs (Node's stream code took
 * V8's runtime path for adding properties; a GC after requests did not do that). Node has no API
 * for a GC; this is the one Jest's leak detector uses (the flag, then `gc` from a new context).
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
function fullGc(): () => void {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as () => void;
  v8.setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    v8.setFlagsFromString('--no-expose-gc'); // contexts made later get no `gc`
  }
}
