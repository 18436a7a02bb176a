/**
 * The first load of a large folder, shared between the main thread and worker threads: each takes
 * the next chunk of ids from one queue, reads and parses it, and the main thread applies what comes
 * back. A worker that is slow to start (tens of ms to load its modules) or runs on a busy core
 * simply takes fewer chunks. On the 2-core machines measured here one worker gained nothing (10,000
 * files: 3,257 ms with it, 3,253 without; later, in-process, five rounds: 1,403 to 1,950 ms with it
 * against 1,267 to 1,476 alone); it is there for machines with idle cores. It is kept on two cores
 * too: without it every parse's garbage lands in the main thread's heap, which keeps the room,
 * where a worker's heap goes with the worker (RSS just after loading 100,000 networks: 991 MB
 * without, 693 MB with; make bench, 2026-11-23). Small folders load on the main thread.
 */
import { availableParallelism } from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import type { Observation } from './disk-sync.js';
import type { Listing } from './folder-listing.js';
import { startModuleWorker } from './module-worker.js';
import { EXTENSIONS, relativePathOf, type NetworkId } from './network-id.js';
import type { UrlPolicy } from './url-rules.js';

/** Below this many networks the main thread loads alone. */
export const PARALLEL_FROM = 2000;
/** Ids per chunk: large enough that a message costs little, small enough to share the tail. */
export const CHUNK = 250;

export function workersFor(count: number): number {
  return count < PARALLEL_FROM ? 0 : Math.min(4, availableParallelism() - 1);
}

/** A chunk for a worker: the ids, and the part of the listing that concerns them. */
export interface LoadChunk {
  ids: NetworkId[];
  files: string[];
  linkedFamilies: string[];
}

export interface ParallelLoad {
  root: string;
  ids: NetworkId[];
  listing: Listing;
  policy: UrlPolicy;
  workers: number;
  /** Reads and parses one id on this thread. */
  observeHere(id: NetworkId): Observation;
  /** Applies an observation (always called on the main thread). */
  apply(obs: Observation): void;
  /** False leaves every chunk to the workers (tests compare their work with this thread's). */
  mainThreadHelps?: boolean;
}

/** Loads every id, on this thread and in `workers` threads; resolves once all are applied. */
export async function loadInParallel(load: ParallelLoad): Promise<void> {
  const chunks: NetworkId[][] = [];
  for (let i = 0; i < load.ids.length; i += CHUNK) chunks.push(load.ids.slice(i, i + CHUNK));
  const take = (): NetworkId[] | undefined => chunks.shift();
  const helpers = Array.from({ length: load.workers }, () => helpWith(load, take));
  // The main thread takes chunks too, yielding between them so /ready answers meanwhile and the
  // workers' results are applied as they arrive.
  for (let chunk = load.mainThreadHelps === false ? undefined : take(); chunk; chunk = take()) {
    for (const id of chunk) load.apply(load.observeHere(id));
    await yieldToLoop();
  }
  // A chunk a failed worker held comes back here: nothing is lost, only time.
  for (const chunk of (await Promise.all(helpers)).flat()) {
    for (const id of chunk) load.apply(load.observeHere(id));
  }
}

/** One worker taking chunks until the queue is empty; resolves with any chunk it could not finish. */
function helpWith(load: ParallelLoad, take: () => NetworkId[] | undefined): Promise<NetworkId[][]> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = startModuleWorker('load-worker', { root: load.root, policy: load.policy });
    } catch {
      resolve([]);
      return;
    }
    let held: NetworkId[] | undefined;
    const next = (): void => {
      held = take();
      if (held === undefined) {
        void worker.terminate();
        resolve([]);
        return;
      }
      const files = held.flatMap((id) => EXTENSIONS.map((ext) => relativePathOf(id, ext))).filter((f) => load.listing.files.has(f));
      const chunk: LoadChunk = { ids: held, files, linkedFamilies: [...load.listing.linkedFamilies] };
      worker.postMessage(chunk);
    };
    const fail = (): void => {
      const unfinished = held ? [held] : [];
      held = undefined;
      void worker.terminate();
      resolve(unfinished);
    };
    worker.on('message', (message: 'ready' | Observation[]) => {
      if (message !== 'ready') for (const obs of message) load.apply(obs);
      next();
    });
    worker.once('error', fail);
    worker.once('exit', (code) => {
      if (code !== 0) fail();
    });
  });
}
