/**
 * The cross-process half of a network's write lock: proper-lockfile's mkdir lock, taken once
 * (no waiting here; FileLocks retries with backoff). Kept apart from FileLocks so the same call
 * runs on the main thread or on a disk thread (threaded-fs.ts): with other writes in flight, a
 * mkdir or rmdir waits for the ext4 journal their fsyncs are committing, and on the main thread
 * that wait stalled every request (28% of the main thread with ten writers, bench/README.md).
 */
import fs from 'node:fs';
import lockfile from 'proper-lockfile';

type Callback = (err: NodeJS.ErrnoException | null, result?: unknown) => void;

/** `fs[name + 'Sync']` in the callback form proper-lockfile calls: the answer comes before the call returns. */
function answeredAtOnce(name: 'mkdir' | 'realpath' | 'stat' | 'rmdir' | 'utimes') {
  const sync = fs[`${name}Sync`] as (...args: unknown[]) => unknown;
  return (...args: unknown[]): void => {
    const callback = args.pop() as Callback;
    let result: unknown;
    try {
      result = sync(...args);
    } catch (err) {
      callback(err as NodeJS.ErrnoException);
      return;
    }
    callback(null, result);
  };
}

/**
 * The file-system calls proper-lockfile makes, synchronous (see lockHere), in one object made
 * once: proper-lockfile learns the mtime precision of the file system on its first lock (a utimes
 * and a stat) and keeps the answer on this object. Its sync API (lockSync) copies the object it is
 * given on every lock, so it paid those two calls on every PATCH (~10 us, plus ~55 us to copy
 * all of node:fs when that was what it was given).
 */
const LOCK_FS = {
  mkdir: answeredAtOnce('mkdir'),
  realpath: answeredAtOnce('realpath'),
  stat: answeredAtOnce('stat'),
  rmdir: answeredAtOnce('rmdir'),
  utimes: answeredAtOnce('utimes'),
};

/** The calls proper-lockfile makes, in its callback form. */
export type LockFs = typeof LOCK_FS;

/**
 * LOCK_FS with the release's rmdir made by `rmdir` (a disk thread: threaded-fs.ts says why). One
 * object per caller, made once, for the same reason as LOCK_FS.
 */
export function lockFsRemovingWith(rmdir: (dir: string) => Promise<void>): LockFs {
  return {
    ...LOCK_FS,
    rmdir: (...args: unknown[]) => {
      const callback = args.pop() as Callback;
      rmdir(args[0] as string).then(() => callback(null), callback);
    },
  };
}

/** Releases a lock; a lock that was compromised meanwhile cannot be, and that is fine. */
export type ReleaseLock = () => Promise<void>;

/** Takes the lock of `target` once, or throws (ELOCKED: held by another process, now). */
export interface LockTaker {
  takeLock(target: string, staleMs: number, onCompromised: (err: Error) => void): Promise<ReleaseLock>;
}

/**
 * The lock of `target` (its folder is `<target>.lock`), in this thread. Every call proper-lockfile
 * makes is synchronous (LOCK_FS): the lock is a mkdir, microseconds when the disk is idle, where
 * node:fs's asynchronous calls would add a thread-pool hand-off per call (~0.4 ms per PATCH, see
 * fs-seam.ts). Its timer keeps the folder's mtime fresh while held, so another process takes it
 * over only once this one is gone for `staleMs`. The release is the rmdir, done as it is called.
 */
export function lockHere(target: string, staleMs: number, onCompromised: (err: Error) => void, lockFs: LockFs = LOCK_FS): Promise<ReleaseLock> {
  return lockfile.lock(target, {
    lockfilePath: `${target}.lock`,
    realpath: false,
    stale: staleMs,
    update: Math.floor(staleMs / 4),
    retries: 0,
    fs: lockFs,
    onCompromised,
  });
}

/** Locks taken on the calling thread. */
export const LOCK_IN_THIS_THREAD: LockTaker = { takeLock: lockHere };
