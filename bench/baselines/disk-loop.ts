/**
 * The disk's limit for a durable replace: write a temp file, fsync it, rename it over the target,
 * fsync the folder, in a loop for DURATION_MS, in the folder netcfg writes to (hidden names, which
 * netcfg's watcher ignores). Synchronous calls: the fastest one writer can go, with nothing else
 * (no parsing, validation, locks or HTTP). Prints one JSON line: ops/s and per-write latency.
 */
import { unlinkSync } from 'node:fs';
import path from 'node:path';
import { replaceDurably } from './durable-replace.js';

const dir = process.env.DIR ?? '';
const durationMs = Number(process.env.DURATION_MS ?? '10000');
if (dir === '') throw new Error('DIR must be set');

const TARGETS = 10;
const bodies = ['a', 'b'].map(
  (v) =>
    `# disk loop\nrpc_urls:\n  - https://${v}-disk-loop.example.com/rpc\n  - url: https://${v}-backup.example.com/rpc\n    weight: 50\n`.padEnd(
      420,
      '#',
    ) + '\n',
);
const latencies: number[] = [];
const started = performance.now();
let ops = 0;
while (performance.now() - started < durationMs) {
  const t0 = performance.now();
  const target = path.join(dir, `.bench-disk-${ops % TARGETS}.yaml`);
  const tmp = `${target}.${process.pid}.${ops}.tmp`;
  replaceDurably(tmp, target, bodies[ops % 2] as string);
  latencies.push(performance.now() - t0);
  ops++;
}
const elapsed = performance.now() - started;
for (let i = 0; i < TARGETS; i++) {
  try {
    unlinkSync(path.join(dir, `.bench-disk-${i}.yaml`));
  } catch {
    // fewer writes than targets
  }
}
latencies.sort((a, b) => a - b);
const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
process.stdout.write(`${JSON.stringify({ ops, opsPerSec: (ops * 1000) / elapsed, p50: at(0.5), p99: at(0.99) })}\n`);
