/**
 * Keeps one of `process.nextTick`'s tick objects alive for the life of the thread.
 *
 * Why: Node 20 builds each tick object as a literal with computed (symbol) keys,
 * `{ [async_id_symbol]: id, [trigger_async_id_symbol]: trigger, callback, args }`, and V8 adds
 * those keys through a per-site inline cache that knows the hidden classes (maps) made there.
 * Nothing holds those maps but the tick objects: a full GC that runs while none is alive (V8's
 * own, or heap.ts's settle) collects them, the next tick makes new ones, and from then on the
 * site can add every key through V8's runtime (`Runtime_DefineKeyedOwnPropertyInLiteral`,
 * `TransitionsAccessor::IsMatchingMap`, `JSObject::MigrateToMap` in `perf`). Every request makes
 * several ticks (streams, on-finished), so the process stays ~10% slower for as long as it runs.
 * Measured (bench/README.md, 2026-11-24): 1,000-network servers given one full GC at ready served
 * GET one at 43.3-43.8k req/s; with the tick object kept, 47.5-49.4k, as without the GC.
 *
 * One live object keeps its map, and through its back pointers the maps before it, so the cache
 * keeps meeting the maps it knows. The object is caught by an async_hooks init hook that is on
 * only for the one tick made here.
 */
import { createHook } from 'node:async_hooks';

let kept: object | null = null;

/** Keeps a tick object (once per thread); false if this Node made none visible to async_hooks. */
export function keepTickShape(): boolean {
  if (kept !== null) return true;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept ??= resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => undefined);
  } finally {
    hook.disable();
  }
  return kept !== null;
}
