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
 * keeps meeting the maps it knows. Inside a tick's callback, async_hooks' executionAsyncResource()
 * is that tick's object: no hook is installed (a hook would turn on V8's promise hooks).
 * A fresh one replaces it every minute: the async ids outgrow V8's small integers after ~10^9
 * (~12 a request: half an hour at the bench's full speed, a day at 1,000 requests a second), and
 * from the first id stored as a double the literal makes objects on new maps, which the old object
 * does not hold (checked with %HaveSameMap on a literal of the same shape).
 */
import { executionAsyncResource } from 'node:async_hooks';

const REFRESH_MS = 60_000;

let kept: object | null = null;
let refreshing: NodeJS.Timeout | undefined;

/**
 * Keeps a tick object, and from then on a fresh one every minute (once per thread). Resolves,
 * at the next tick, with whether one was caught (false if this Node's ticks are made otherwise).
 */
export function keepTickShape(): Promise<boolean> {
  refreshing ??= setInterval(() => void catchTick(), REFRESH_MS).unref();
  return catchTick();
}

async function catchTick(): Promise<boolean> {
  kept = (await nextTickObject()) ?? kept;
  return kept !== null;
}

/** The object of a tick made now, or null if this Node's ticks are made otherwise. */
export function nextTickObject(): Promise<object | null> {
  return new Promise((resolve) => {
    const caught = (): void => {
      const resource = executionAsyncResource() as { callback?: unknown };
      resolve(resource.callback === caught ? resource : null);
    };
    process.nextTick(caught);
  });
}
