/**
 * The first load of a large folder, shared between the main thread and worker threads: each claims
 * the next chunk of ids from a counter they share, reads and parses it, and the main thread applies
 * what comes back. A worker that is slow to start (tens of ms to load its modules) or runs on a
 * busy core simply claims fewer chunks. On the 2-core machines measured here one worker gained
 * little while the main thread handed it its chunks (10,000 files: 1,779 against 1,906 ms without
 * it): it waited for the main thread between chunks. Claiming them itself, it reads as many as the
 * main thread does, and a cold start went from a median of 1,644 to 1,518 ms (10 rounds each,
 * bench/README.md). Without it, too, every parse's garbage lands in the main thread's heap, which
 * keeps the room, where a worker's heap goes with the worker (RSS just after loading 100,000
 * networks: 991 MB without, 693 MB with; make bench, 2026-11-23). Small folders load on the main
 * thread.
 */
import { availableParallelism } from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import type { Observation } from './disk-sync.js';
import type { Listing } from './folder-listing.js';
import { startModuleWorker } from './module-worker.js';
import type { NetworkId } from './network-id.js';
import type { UrlPolicy } from './url-rules.js';

/** Below this many networks the main thread loads alone. */
export const PARALLEL_FROM = 2000;
/** Ids per chunk: large enough that a message costs little, small enough to share the tail. */
export const CHUNK = 250;

export function workersFor(count: number): number {
  return count < PARALLEL_FROM ? 0 : Math.min(4, availableParallelism() - 1);
}

/**
 * What a worker is given, once: every chunk, the listing they are read against, and the counter
 * every thread claims chunks from (Atomics.add), so a worker goes from one chunk to the next
 * without waiting for the main thread to hand it one: the main thread only hears a worker between
 * its own chunks, and a worker served that way sat idle for ~30% of the load (10,000 files,
 * bench/README.md, session of 2026-11-23 night 4).
 */
export interface LoadJob {
  chunks: NetworkId[][];
  files: string[];
  linkedFamilies: string[];
  next: Int32Array;
}

/** What a worker sends: the observations of one chunk it claimed, then 'done' once none is left. */
export type LoadReport = { chunk: number; observations: Observation[] } | 'done';

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
  /** Called with each worker as it starts (tests stop one midway). */
  onWorker?(worker: Worker): void;
}

/** Claims the next chunk from `next`: its index, or -1 once every chunk is claimed. */
export function claimChunk(next: Int32Array, count: number): number {
  const i = Atomics.add(next, 0, 1);
  return i < count ? i : -1;
}

/** Loads every id, on this thread and in `workers` threads; resolves once all are applied. */
export async function loadInParallel(load: ParallelLoad): Promise<void> {
  const chunks: NetworkId[][] = [];
  for (let i = 0; i < load.ids.length; i += CHUNK) chunks.push(load.ids.slice(i, i + CHUNK));
  const applied = new Uint8Array(chunks.length);
  const applyChunk = (i: number, observations: Observation[]): void => {
    for (const obs of observations) load.apply(obs);
    applied[i] = 1;
  };
  const readHere = (i: number): void => applyChunk(i, (chunks[i] as NetworkId[]).map((id) => load.observeHere(id)));
  const next = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const helpers: Array<Promise<void>> = [];
  // The job (a copy of the listing) is built only when there is a worker to send it to.
  if (load.workers > 0 && chunks.length > 0) {
    const job: LoadJob = { chunks, files: [...load.listing.files], linkedFamilies: [...load.listing.linkedFamilies], next };
    for (let w = 0; w < load.workers; w++) helpers.push(helpWith(load, job, applyChunk));
  }
  // The main thread claims chunks too, yielding between them so /ready answers meanwhile and the
  // workers' results are applied as they arrive.
  if (load.mainThreadHelps !== false) {
    for (let i = claimChunk(next, chunks.length); i >= 0; i = claimChunk(next, chunks.length)) {
      readHere(i);
      await yieldToLoop();
    }
  }
  await Promise.all(helpers);
  // A chunk a failed worker claimed (or left unclaimed) is read here: nothing is lost, only time.
  for (let i = 0; i < chunks.length; i++) if (applied[i] === 0) readHere(i);
}

/** One worker claiming chunks until none is left; resolves once it is done or has failed. */
function helpWith(load: ParallelLoad, job: LoadJob, applyChunk: (i: number, observations: Observation[]) => void): Promise<void> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = startModuleWorker('load-worker', { root: load.root, policy: load.policy });
    } catch {
      resolve();
      return;
    }
    let over = false;
    const end = (): void => {
      // Anything the worker sends after this is left out: its chunk is read again on this thread.
      over = true;
      void worker.terminate();
      resolve();
    };
    worker.on('message', (report: LoadReport) => {
      if (over) return;
      if (report === 'done') end();
      else applyChunk(report.chunk, report.observations);
    });
    worker.once('error', end);
    worker.once('exit', end);
    worker.postMessage(job);
    load.onWorker?.(worker);
  });
}
