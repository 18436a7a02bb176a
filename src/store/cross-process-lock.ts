/**
 * The cross-process half of a network's write lock: proper-lockfile's mkdir lock, taken once
 * (no waiting here; FileLocks retries with backoff). Kept apart from FileLocks so the same call
 * runs on the main thread or on a disk thread (threaded-fs.ts): with other writes in flight, a
 * mkdir or rmdir waits for the ext4 journal their fsyncs are committing, and on the main thread
 * that wait stalled every request (28% of the main thread with ten writers, bench/README.md).
 */
import fs from 'node:fs';
import lockfile from 'proper-lockfile';

/**
 * The file-system calls proper-lockfile makes, and nothing else: its sync API copies the object
 * it is given on every lock, and a copy of all of node:fs cost ~55 us per PATCH.
 */
const LOCK_FS = {
  mkdir: fs.mkdir,
  mkdirSync: fs.mkdirSync,
  realpath: fs.realpath,
  realpathSync: fs.realpathSync,
  stat: fs.stat,
  statSync: fs.statSync,
  rmdir: fs.rmdir,
  rmdirSync: fs.rmdirSync,
  utimes: fs.utimes,
  utimesSync: fs.utimesSync,
};

/** Releases a lock; a lock that was compromised meanwhile cannot be, and that is fine. */
export type ReleaseLock = () => Promise<void>;

/** Takes the lock of `target` once, or throws (ELOCKED: held by another process, now). */
export interface LockTaker {
  takeLock(target: string, staleMs: number, onCompromised: (err: Error) => void): Promise<ReleaseLock>;
}

/**
 * The lock of `target` (its folder is `<target>.lock`), in this thread. The sync form is a mkdir,
 * microseconds when the disk is idle; proper-lockfile's async form would add a thread-pool
 * hand-off per call (~0.4 ms per PATCH, see fs-seam.ts). Its timer keeps the folder's mtime fresh
 * while held, so another process takes it over only once this one is gone for `staleMs`.
 */
export function lockSync(target: string, staleMs: number, onCompromised: (err: Error) => void): () => void {
  return lockfile.lockSync(target, {
    lockfilePath: `${target}.lock`,
    realpath: false,
    stale: staleMs,
    update: Math.floor(staleMs / 4),
    retries: 0,
    fs: LOCK_FS,
    onCompromised,
  });
}

/** Locks taken on the calling thread. */
export const LOCK_IN_THIS_THREAD: LockTaker = {
  async takeLock(target, staleMs, onCompromised) {
    const release = lockSync(target, staleMs, onCompromised);
    return async () => release();
  },
};
