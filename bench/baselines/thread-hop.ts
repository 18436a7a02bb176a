/**
 * What a hand-off between two threads costs on this machine: a message to a worker thread and its
 * answer back (postMessage both ways), timed on the sending thread. A PATCH makes one such round
 * trip (threaded-fs.ts sends its write to a disk thread), to a thread that sat idle since the last
 * write; the disk loop it is compared with makes none. Timed two ways:
 * - idle: each message after both threads had nothing to do for ~1 ms, as between the steps of a
 *   one-connection PATCH. A guest that does not halt-poll (see idlePolicy below) halts an idle
 *   vCPU at once, and the message must first wake it.
 * - back to back: each message as soon as the previous answer came, the threads never idle.
 * Also reads the guest's cpuidle governor and its halt-poll limit, where Linux shows them.
 * Prints one JSON line: median and p90 of each, in microseconds.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

const ROUNDS = 400;

if (!isMainThread) {
  parentPort?.on('message', (n: number) => parentPort?.postMessage(n));
} else {
  const worker = new Worker(new URL(import.meta.url));
  const hop = (n: number): Promise<number> =>
    new Promise((resolve) => {
      const sent = performance.now();
      worker.once('message', () => resolve((performance.now() - sent) * 1000));
      worker.postMessage(n);
    });
  const idle: number[] = [];
  const busy: number[] = [];
  for (let i = 0; i < 50; i++) await hop(i); // the worker's code compiled, its loop running
  for (let i = 0; i < ROUNDS; i++) {
    await sleep(1);
    idle.push(await hop(i));
  }
  for (let i = 0; i < ROUNDS; i++) busy.push(await hop(i));
  await worker.terminate();
  process.stdout.write(`${JSON.stringify({ idle: summary(idle), backToBack: summary(busy), idlePolicy: idlePolicy() })}\n`);
}

function summary(us: number[]): { p50: number; p90: number } {
  const sorted = [...us].sort((a, b) => a - b);
  const at = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { p50: at(0.5), p90: at(0.9) };
}

/** e.g. "haltpoll, guest_halt_poll_ns 0"; null where /sys does not say. */
function idlePolicy(): string | null {
  const read = (file: string): string | null => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return null;
    }
  };
  const governor = read('/sys/devices/system/cpu/cpuidle/current_governor_ro') ?? read('/sys/devices/system/cpu/cpuidle/current_governor');
  if (governor === null) return null;
  const pollNs = read('/sys/module/haltpoll/parameters/guest_halt_poll_ns');
  return pollNs === null ? governor : `${governor}, guest_halt_poll_ns ${pollNs}`;
}
