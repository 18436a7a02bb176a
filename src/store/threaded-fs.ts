/**
 * The FsSeam the store writes through: the steps of a write that touch the disk's metadata run on
 * a few disk threads (disk-thread.ts), the rest as nodeFs does (fs-seam.ts).
 *
 * Why: with ten writers at once the main thread was ~98% busy, and 27% of it went to synchronous
 * open, write, rename and close calls that stall while the other writers' fsyncs commit the
 * ext4 journal (bench/README.md). Every read waited behind them. Through libuv's pool each call
 * would cost a hand-off of its own (~0.1 ms, fs-seam.ts); here a step's calls go in one message
 * and come back in one, so a PATCH makes as many hand-offs as before (create + fsync; rename +
 * folder fsync) and the main thread only sends and receives. Several threads, so the fsyncs of
 * concurrent writes (to different files: each file has its lock) overlap and the journal commits
 * them together. Threads start on the first write and do not keep the process alive.
 */
import type { Worker } from 'node:worker_threads';
import type { DiskOp, DiskReply } from './disk-thread.js';
import { nodeFs, type FsSeam, type RenameOutcome, type Replaced } from './fs-seam.js';
import { startModuleWorker } from './module-worker.js';

/** Writes in flight at once; more only wait in a thread's queue. */
export const DISK_THREADS = 4;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

class DiskThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;

  constructor() {
    this.worker = startModuleWorker('disk-thread', null);
    this.worker.unref();
    this.worker.on('message', (reply: DiskReply) => this.settle(reply));
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', (code) => this.failAll(new Error(`the disk thread exited (${code})`)));
  }

  get load(): number {
    return this.pending.size;
  }

  run(request: DiskOp): Promise<unknown> {
    const seq = ++this.seq;
    if (this.pending.size === 0) this.worker.ref(); // a write in flight keeps the process up
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.worker.postMessage({ seq, ...request });
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }

  private settle({ seq, result, error }: DiskReply): void {
    const waiting = this.pending.get(seq);
    if (!waiting) return;
    this.pending.delete(seq);
    if (this.pending.size === 0) this.worker.unref();
    if (!error) {
      waiting.resolve(result);
      return;
    }
    // The same error the call would have thrown on this thread: errno code, syscall and path.
    const err = Object.assign(new Error(error.message), error) as NodeJS.ErrnoException;
    waiting.reject(err);
  }

  private failAll(err: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
  }
}

export class ThreadedFs implements FsSeam {
  private threads: DiskThread[] = [];

  constructor(private readonly count = DISK_THREADS) {}

  readFile = nodeFs.readFile;
  stat = nodeFs.stat;
  unlink = nodeFs.unlink;
  mkdir = nodeFs.mkdir;

  async writeNewDurable(file: string, data: string, mode: number): Promise<void> {
    await this.run({ op: 'create', args: [file, data, mode] });
  }

  async renameIfUnchanged(from: string, to: string, expected: Uint8Array, gitLockFile: string | null): Promise<RenameOutcome> {
    return (await this.run({ op: 'rename', args: [from, to, expected, gitLockFile] })) as RenameOutcome;
  }

  async replace(from: string, to: string, expected: Uint8Array, gitLockFile: string | null): Promise<Replaced> {
    const replaced = (await this.run({ op: 'replace', args: [from, to, expected, gitLockFile] })) as Replaced;
    if (replaced.syncError) replaced.syncError = Object.assign(new Error(replaced.syncError.message), replaced.syncError);
    return replaced;
  }

  async fsyncDir(dir: string): Promise<void> {
    await this.run({ op: 'fsync-dir', args: [dir] });
  }

  /** Stops the threads (a write still in flight fails); the next write starts them again. */
  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map((t) => t.close()));
  }

  /** On the least busy thread, starting one more while every thread has work. */
  private run(request: DiskOp): Promise<unknown> {
    let best: DiskThread | undefined;
    for (const t of this.threads) if (!best || t.load < best.load) best = t;
    if (!best || (best.load > 0 && this.threads.length < this.count)) {
      best = new DiskThread();
      this.threads.push(best);
    }
    return best.run(request);
  }
}
