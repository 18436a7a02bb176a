/**
 * The FsSeam the store writes through: the steps of a write that touch the disk's metadata run on
 * a few disk threads (disk-thread.ts), the rest as nodeFs does (fs-seam.ts).
 *
 * Why: with ten writers at once the main thread was ~98% busy, and 27% of it went to synchronous
 * open, write, rename and close calls that stall while the other writers' fsyncs commit the
 * ext4 journal (bench/README.md). Every read waited behind them. Through libuv's pool each call
 * would cost a hand-off of its own (~0.1 ms, fs-seam.ts); here a write's calls (create + fsync,
 * rename + folder fsync) go in one message and come back in one, a single hand-off per PATCH, and
 * the main thread only sends and receives. Several threads, so the fsyncs of
 * concurrent writes (to different files: each file has its lock) overlap and the journal commits
 * them together. Threads start on the first write and do not keep the process alive.
 *
 * A PATCH's cross-process lock is usually made and removed inside its write message (fs-seam.ts);
 * one held throughout a PATCH (file-lock.ts says when) is taken here, on this thread or a disk
 * thread: see takeLock.
 */
import type { Worker } from 'node:worker_threads';
import { lockFsRemovingWith, lockHere, type LockTaker, type ReleaseLock } from './cross-process-lock.js';
import type { DiskMessage, DiskOp } from './disk-thread.js';
import { nodeFs, type FsSeam, type Replaced } from './fs-seam.js';
import { startModuleWorker } from './module-worker.js';

/**
 * Disk steps in flight at once; more wait in a thread's queue. Two: on these two-core machines a
 * fsync costs CPU (~100 us of system time, bench/README.md) and ten writers are CPU-bound, so more
 * threads only contend; measured with ten writers, 3 runs of 4 s: 4 threads 998/1,365/1,412
 * PATCH/s, 2 threads 1,092/1,488/1,462 (and 1,053/1,547/1,483 against 1 thread's 1,208/1,396/1,457).
 */
export const DISK_THREADS = 2;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

class DiskThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  /** The locks this thread holds, by the seq of the request that took them: who hears if one is compromised. */
  private readonly locks = new Map<number, (err: Error) => void>();
  private seq = 0;
  /**
   * The lock folder this thread removes just after its last answer (disk-thread.ts), so that the
   * network's next write from this process is sent here, behind that rmdir, rather than to a
   * thread whose mkdir could find the folder still there. Any later answer means it is gone.
   */
  removing: string | null = null;
  /** Why the thread is gone (it failed or exited): later requests fail at once instead of waiting for ever. */
  private gone: Error | null = null;

  constructor() {
    this.worker = startModuleWorker('disk-thread', null);
    this.worker.unref();
    this.worker.on('message', (message: DiskMessage) => {
      if ('compromised' in message) this.locks.get(message.compromised)?.(new Error(message.message));
      else this.settle(message);
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', (code) => this.failAll(new Error(`the disk thread exited (${code})`)));
  }

  get load(): number {
    return this.pending.size;
  }

  get alive(): boolean {
    return this.gone === null;
  }

  /** Takes the lock of `target` on this thread; its release must come back here too. */
  async lock(target: string, staleMs: number, onCompromised: (err: Error) => void): Promise<ReleaseLock> {
    // The request's number names the lock in both threads: listening before it is sent.
    const seq = ++this.seq;
    this.locks.set(seq, onCompromised);
    try {
      await this.send(seq, { op: 'lock', args: [target, staleMs] });
    } catch (err) {
      this.locks.delete(seq);
      throw err;
    }
    return async () => {
      this.locks.delete(seq);
      await this.run({ op: 'unlock', args: [seq] });
    };
  }

  run(request: DiskOp): Promise<unknown> {
    return this.send(++this.seq, request);
  }

  private send(seq: number, request: DiskOp): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    if (this.pending.size === 0) this.worker.ref(); // a write in flight keeps the process up
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.worker.postMessage({ seq, ...request });
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }

  private settle({ seq, result, error, removing }: Exclude<DiskMessage, { compromised: number }>): void {
    this.removing = removing ?? null;
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
    this.gone ??= err;
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
    // Its locks are no longer kept fresh: another process may take them, so their holders must not rename.
    for (const compromised of this.locks.values()) compromised(err);
    this.locks.clear();
  }
}

export class ThreadedFs implements FsSeam, LockTaker {
  private threads: DiskThread[] = [];
  /** Locks taken through takeLock and not yet released. */
  private held = 0;
  /** proper-lockfile's calls for a lock taken on this thread: all here, but the rmdir (takeLock). */
  private readonly lockFs = lockFsRemovingWith(async (dir) => {
    await this.run({ op: 'rmdir', args: [dir] });
  });

  /**
   * `locks`: 'alone-here' takes a lock on this thread when no other is held (takeLock says why);
   * 'on-threads' always on a disk thread (the tests use it to run that path on its own).
   */
  constructor(
    private readonly count = DISK_THREADS,
    private readonly locks: 'alone-here' | 'on-threads' = 'alone-here',
  ) {}

  /** Disk threads running now. */
  get threadCount(): number {
    return this.threads.length;
  }

  /** Requests in flight on each thread, in the order the threads started (tests look at where a write went). */
  get loads(): number[] {
    return this.threads.map((t) => t.load);
  }

  readFile = nodeFs.readFile;
  stat = nodeFs.stat;
  unlink = nodeFs.unlink;
  mkdir = nodeFs.mkdir;

  async writeAndReplace(...args: Parameters<FsSeam['writeAndReplace']>): Promise<Replaced> {
    const lockFolder = args[6] ?? null;
    const behind = lockFolder === null ? undefined : this.threads.find((t) => t.alive && t.removing === lockFolder);
    const replaced = (await (behind ?? this.pick()).run({ op: 'write-and-replace', args })) as Replaced;
    if (replaced.syncError) replaced.syncError = Object.assign(new Error(replaced.syncError.message), replaced.syncError);
    return replaced;
  }

  async fsyncDir(dir: string): Promise<void> {
    await this.run({ op: 'fsync-dir', args: [dir] });
  }

  /**
   * Alone, a writer takes its lock on this thread: a mkdir is microseconds on an idle disk, where
   * a trip to a thread and back costs ~50 us here. While another writer holds a lock, its fsyncs
   * may be committing the journal, which a mkdir (and later the rmdir) would wait for: then the
   * lock is taken, and released, on a disk thread, and this thread goes on serving.
   * A lock taken here is still removed on a disk thread: its rmdir is the slowest call of a lock
   * (58-68 us, ~9% of this thread's time in a one-connection PATCH profile) and nothing waits for
   * it but the next writer of the same network, so this thread sends it and goes on.
   * (Only locks taken here count as held: a write holding its lock inside its own message is
   * not seen, so under many such writes a rare lock taken the long way may still be taken here.)
   */
  async takeLock(target: string, staleMs: number, onCompromised: (err: Error) => void): Promise<ReleaseLock> {
    const here = this.held === 0 && this.locks === 'alone-here';
    this.held++;
    let release: ReleaseLock;
    try {
      release = await (here ? lockHere(target, staleMs, onCompromised, this.lockFs) : this.pick().lock(target, staleMs, onCompromised));
    } catch (err) {
      this.held--;
      throw err;
    }
    return async () => {
      this.held--;
      await release();
    };
  }

  /** Resolves once every thread has done what it was sent, and what that left for after its answers. */
  async settled(): Promise<void> {
    await Promise.all(this.threads.filter((t) => t.alive).map((t) => t.run({ op: 'flush', args: [] })));
  }

  /** Stops the threads (a write still in flight fails); the next write starts them again. */
  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map((t) => t.close()));
  }

  private run(request: DiskOp): Promise<unknown> {
    return this.pick().run(request);
  }

  /** The least busy thread, starting one more while every thread has work. */
  private pick(): DiskThread {
    if (this.threads.some((t) => !t.alive)) this.threads = this.threads.filter((t) => t.alive);
    let best: DiskThread | undefined;
    for (const t of this.threads) if (!best || t.load < best.load) best = t;
    if (!best || (best.load > 0 && this.threads.length < this.count)) {
      best = new DiskThread();
      this.threads.push(best);
    }
    return best;
  }
}
