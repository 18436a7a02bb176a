/**
 * A write's go-ahead, given after the write has started. A PATCH sends its new text to a disk
 * thread to be written and fsynced, then reads that text back (parse + validation, the check that
 * it is the intended data and a valid network) while the disk works; the rename waits for the
 * verdict. On one connection that takes the read-back, ~10% of a PATCH, off its critical path
 * (bench/README.md, session of 2026-11-23 night 5).
 *
 * One Int32 of shared memory: the disk thread waits on it with Atomics.wait (it is there to
 * block), with no message and no turn of its event loop; the main thread's own seam (nodeFs, in
 * tests) waits without blocking.
 */
const PENDING = 0;
const GO = 1;
const STOP = 2;

/** Passed to the disk thread in the write's message: the memory is shared, not copied. */
export type GoAhead = Int32Array;

/**
 * How long a write waits for its verdict before it gives up, writing nothing. The verdict comes
 * in the same turn of the main thread that sent the write, a few hundred microseconds later; a
 * second means that thread is stuck, and the write's lock folder must not outlive that for long.
 */
export const GO_AHEAD_TIMEOUT_MS = 1000;

export function newGoAhead(): GoAhead {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** Gives the verdict, once; a later call changes nothing. */
export function giveGoAhead(cell: GoAhead, go: boolean): void {
  if (Atomics.compareExchange(cell, 0, PENDING, go ? GO : STOP) === PENDING) Atomics.notify(cell, 0);
}

/**
 * Blocks the calling thread until the verdict (a disk thread only: the main thread is the one
 * that gives it). No verdict within the timeout counts as no, and stays no for the giver too.
 */
export function awaitGoAheadBlocking(cell: GoAhead, timeoutMs = GO_AHEAD_TIMEOUT_MS): boolean {
  Atomics.wait(cell, 0, PENDING, timeoutMs);
  return settled(cell);
}

/** The same without blocking, for a seam that runs on the main thread. */
export async function awaitGoAhead(cell: GoAhead, timeoutMs = GO_AHEAD_TIMEOUT_MS): Promise<boolean> {
  const waiting = Atomics.waitAsync(cell, 0, PENDING, timeoutMs);
  if (waiting.async) await waiting.value;
  return settled(cell);
}

/** Whether the go-ahead was given as yes; a cell still pending is settled as no, for good. */
function settled(cell: GoAhead): boolean {
  Atomics.compareExchange(cell, 0, PENDING, STOP);
  return Atomics.load(cell, 0) === GO;
}
