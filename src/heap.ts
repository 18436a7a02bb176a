/**
 * One full garbage collection, once the first load is done. The load parses every file, and what
 * the parses leave behind is promoted to V8's old generation while the load runs; it then lies
 * there until V8's first mark-compact, which with 100,000 networks came ~100 s into serving
 * (294 MB live after each scavenge, 101 MB after a full collection). Until then every scavenge,
 * so every few hundred requests, pays for those pages (~4 us per MB; bench/README.md).
 *
 * V8 offers no such call without `--expose-gc`, and netcfg runs without node flags. The flag can
 * be set at run time for contexts made afterwards, which gives the function without exposing it
 * on the global object (Jest gets its `gc` for --logHeapUsage the same way).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

export interface Collected {
  beforeMb: number;
  afterMb: number;
  ms: number;
}

export function collectLoadGarbage(): Collected {
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  v8.setFlagsFromString('--no-expose-gc');
  gc();
  const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
  return { beforeMb: mb(before), afterMb: mb(process.memoryUsage().heapUsed), ms: Math.round(performance.now() - started) };
}
