/**
 * The first load of a large folder, spread over worker threads: each reads and parses a share of
 * the files, so a 2-core machine parses two at a time. Small folders are not worth the workers'
 * start-up (tens of ms each) and load on the main thread.
 */
import { availableParallelism } from 'node:os';
import type { Observation } from './disk-sync.js';
import { startModuleWorker } from './module-worker.js';
import type { NetworkId } from './network-id.js';
import type { UrlPolicy } from './url-rules.js';

/** Below this many networks the main thread loads alone. */
export const PARALLEL_FROM = 2000;

export function workersFor(count: number): number {
  return count < PARALLEL_FROM ? 0 : Math.min(4, availableParallelism());
}

/** Reads and parses `ids` in `workers` threads; rejects if any worker fails. */
export async function observeInWorkers(root: string, ids: NetworkId[], policy: UrlPolicy, workers: number): Promise<Observation[]> {
  const size = Math.ceil(ids.length / workers);
  const shares = Array.from({ length: workers }, (_, i) => ids.slice(i * size, (i + 1) * size));
  const results = await Promise.all(
    shares.map(
      (share) =>
        new Promise<Observation[]>((resolve, reject) => {
          const worker = startModuleWorker('load-worker', { root, ids: share, policy });
          worker.once('message', (observations: Observation[]) => {
            resolve(observations);
            void worker.terminate();
          });
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (code !== 0) reject(new Error(`load worker exited with ${code}`));
          });
        }),
    ),
  );
  return results.flat();
}
