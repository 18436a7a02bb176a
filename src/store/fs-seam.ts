/**
 * The store's one seam to the file system for writes. Everything a PATCH does to disk goes through
 * an FsSeam, so tests can make the disk say no (ENOSPC, EIO, EROFS) where chmod cannot (root).
 *
 * The calls are synchronous, grouped into the steps of a write: each takes a few microseconds,
 * where the same call through the libuv thread pool costs 90-130 us of CPU and a thread hand-off
 * on these machines (measured: fs.promises.stat 98 us, statSync + readFileSync together 10 us).
 * A PATCH made 15 such hand-offs; they were most of its time. nodeFs runs the steps on the
 * calling thread with only the fsyncs through the pool; the store writes through ThreadedFs
 * (threaded-fs.ts), which runs each step whole on a disk thread: one hand-off per step.
 */
import { closeSync, existsSync, fchmodSync, fstatSync, fsync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync, type BigIntStats, type Stats } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { stampOfStats } from './folder-listing.js';
import { awaitGoAhead, type GoAhead } from './go-ahead.js';
import { READ_NOT_A_LINK } from './read-text.js';
import { isGone, readRegularFile } from './served-file.js';

const fsyncFd = promisify(fsync);

export type RenameOutcome = 'renamed' | 'gone' | 'changed';

/**
 * A replace's outcome: 'locked' when it was to take a lock folder and could not, 'stopped' when
 * its go-ahead was no (nothing written either way).
 */
export type ReplaceOutcome = RenameOutcome | 'locked' | 'stopped';

export interface Replaced {
  outcome: ReplaceOutcome;
  syncError?: NodeJS.ErrnoException;
  /**
   * When renamed: the stamp (folder-listing.ts) of `to` just after the rename, if it was still
   * the file written (see stampAsWritten). The store records it so that the watcher's event for
   * this very write is answered with a stat, not a read.
   */
  stamp?: string;
}

export interface FsSeam {
  /** A network file's bytes, refused unless a regular file (served-file.ts); `rel` names it in errors. */
  readFile(file: string, rel?: string): Promise<Buffer>;
  stat(file: string): Promise<Stats>;
  /**
   * A whole durable replace in one call, so a seam that runs it elsewhere makes one trip: the
   * WriteSteps below, in order (writeAndReplaceBySteps). `syncError` is set when the rename was
   * done but the folder's fsync failed. Whatever the outcome, a `tmp` that was made and not
   * renamed is the caller's to remove. With `lockFolder`, the whole replace holds that
   * cross-process lock (file-lock.ts): made first, removed last; 'locked' if it could not be made.
   * With `goAhead`, the rename waits for that verdict (go-ahead.ts), given by the caller once it has
   * checked `data`, while the temp file is written: 'stopped' if it is no.
   */
  writeAndReplace(tmp: string, data: string, mode: number, to: string, expected: Uint8Array, gitLockFile: string | null, lockFolder?: string | null, goAhead?: GoAhead | null): Promise<Replaced>;
  unlink(file: string): Promise<void>;
  /** fsync a directory, so a rename in it survives a power cut. */
  fsyncDir(dir: string): Promise<void>;
  mkdir(dir: string): Promise<void>;
  /** Resolves once what the writes so far left for after their answers is done: lock folders removed, replaced files closed. */
  settled?(): Promise<void>;
}

/** The steps of writeAndReplace: run blocking on a disk thread, or one by one by a test's seam (to fail any). */
export interface WriteSteps {
  /** Creates `file` (it must not exist) with `mode`, writes `data` and fsyncs it before closing. */
  writeNewDurable(file: string, data: string, mode: number): Promise<void>;
  /**
   * Renames `from` over `to` only if `to` still holds exactly `expected` and `gitLockFile` (when
   * given) does not exist: 'gone' or 'changed' otherwise, and `from` is left for the caller to
   * remove. The checks and the rename happen in one synchronous step, so nothing in this process
   * runs between them and another process (git) has only microseconds to change the file in between.
   */
  renameIfUnchanged(from: string, to: string, expected: Uint8Array, gitLockFile: string | null): Promise<RenameOutcome>;
  /** Then, when renamed, an fsync of the folder of `to`. */
  fsyncDir(dir: string): Promise<void>;
  /** Between the two, when the write has one: waits for its go-ahead (true: go on). */
  goAhead(cell: GoAhead): Promise<boolean>;
  /**
   * When given, a renamed write's lock folder is left for this to remove just after the write's
   * answer (a disk thread does: disk-thread.ts); without it, the folder goes before the answer.
   * Nothing in this process waits for it but the network's next write, which must come after it.
   */
  removeAfterAnswer?(lockFolder: string): void;
}

/** Creates `file` (it must not exist) holding `data`, with exactly `mode`: an open fd, the caller's to sync and close. */
function createFilled(file: string, data: string, mode: number): number {
  const fd = openSync(file, 'wx', mode);
  try {
    fchmodSync(fd, mode); // exact mode, whatever the umask
    writeFileSync(fd, data, 'utf8');
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The steps of a write, synchronous: the disk thread runs them (disk-thread.ts), and nodeFs below. */
export function writeNewDurableSync(file: string, data: string, mode: number): void {
  const fd = createFilled(file, data, mode);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * `closeReplaced` is given the file `to` opened for the check, still open after the rename: while
 * an fd holds the replaced file, the rename only unlinks it, and the inode is freed (its blocks
 * given back, ~55 us here, most of a rename's ~65) at the close. A disk thread closes it after the
 * write's answer (disk-thread.ts), on a folder where that is cheap (frees-on-close.ts); by default it
 * is closed at once.
 */
export function renameIfUnchangedSync(from: string, to: string, expected: Uint8Array, gitLockFile: string | null, closeReplaced: (fd: number) => void = closeSync): RenameOutcome {
  let fd: number;
  try {
    // Without blocking or following a link: `to` was a regular file when read, and anything
    // else there now (a FIFO, a link) is a change, which the caller looks at again.
    fd = openSync(to, READ_NOT_A_LINK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') return 'changed';
    return goneOr(err);
  }
  let renamed = false;
  try {
    const found = stillAsRead(fd, to, expected, gitLockFile);
    if (found !== 'unchanged') return found;
    // An ENOENT here is our temp file's (.tmp/ removed), thrown for the caller to make it again.
    renameSync(from, to);
    renamed = true;
    return 'renamed';
  } finally {
    (renamed ? closeReplaced : closeSync)(fd);
  }
}

/** Whether `fd` (`to`, opened) still holds `expected`, is still what `to` names, and no git command has started. */
function stillAsRead(fd: number, to: string, expected: Uint8Array, gitLockFile: string | null): 'unchanged' | 'changed' | 'gone' {
  try {
    const read = fstatSync(fd, { bigint: true });
    if (!read.isFile() || read.size !== BigInt(expected.length)) return 'changed';
    // The bytes themselves, not their hash: this check sits between the last read and the
    // rename, the window in which a git checkout can slip (see RELIABILITY.md), so it is kept short.
    if (!readFileSync(fd).equals(expected)) return 'changed';
    // A git command that started meanwhile counts as a change: the caller reads again once it is done.
    if (gitLockFile !== null && existsSync(gitLockFile)) return 'changed';
    // The bytes were checked; a single stat then tells whether the file is still the one read,
    // so the last step before the rename is one system call, not an open, a read and a close:
    // a checkout landing in between is what this narrows (RELIABILITY.md).
    const now = statSync(to, { bigint: true }); // follows a link, as the open did
    if (now.ino !== read.ino || now.size !== read.size || now.mtimeNs !== read.mtimeNs || now.ctimeNs !== read.ctimeNs) return 'changed';
    return 'unchanged';
  } catch (err) {
    return goneOr(err);
  }
}

/** 'gone' for a file (or its folder) that is not there; any other error is thrown. */
function goneOr(err: unknown): 'gone' {
  if (isGone(err)) return 'gone';
  throw err;
}

export function fsyncDirSync(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * writeAndReplace() as its three steps, each through `seam` (so a test's seam can fail any),
 * inside the lock folder when one is given. The folder is proper-lockfile's (a mkdir is the lock):
 * held for one write's steps, a millisecond or two, it needs none of proper-lockfile's refreshes,
 * and a process killed while holding it leaves a folder that goes stale and is taken over as any.
 * (A disk stalled in an fsync for longer than the stale time lets another process take it over;
 * the byte check before each rename still keeps either write from undoing the other.)
 */
export async function writeAndReplaceBySteps(
  seam: WriteSteps,
  ...[tmp, data, mode, to, expected, gitLockFile, lockFolder = null, goAhead = null]: Parameters<FsSeam['writeAndReplace']>
): Promise<Replaced> {
  if (lockFolder === null) return replaceBySteps(seam, tmp, data, mode, to, expected, gitLockFile, null, goAhead);
  try {
    mkdirSync(lockFolder);
  } catch {
    // Held by another process (EEXIST), or not to be made here (its parent gone, a read-only
    // disk): the caller takes the lock the long way, which waits, takes over or says why.
    return { outcome: 'locked' };
  }
  let outcome: ReplaceOutcome | undefined;
  try {
    const replaced = await replaceBySteps(seam, tmp, data, mode, to, expected, gitLockFile, null, goAhead);
    outcome = replaced.outcome;
    return replaced;
  } finally {
    // Once renamed, nothing in this process waits for the folder to go but the network's next
    // write (threaded-fs.ts sends it behind), so its rmdir (~50-60 us here) may follow the answer.
    // Otherwise the caller may take the lock the long way next: the folder goes first.
    if (outcome === 'renamed' && seam.removeAfterAnswer) seam.removeAfterAnswer(lockFolder);
    else removeLockFolder(lockFolder);
  }
}

/** Removes a write's lock folder; one not removable (gone already, a disk gone read-only) goes stale and is taken over. */
export function removeLockFolder(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    /* see above */
  }
}

async function replaceBySteps(
  seam: WriteSteps,
  ...[tmp, data, mode, to, expected, gitLockFile, , goAhead = null]: Parameters<FsSeam['writeAndReplace']>
): Promise<Replaced> {
  await seam.writeNewDurable(tmp, data, mode);
  const made = statSync(tmp, { bigint: true });
  if (goAhead !== null && !(await seam.goAhead(goAhead))) return { outcome: 'stopped' };
  const outcome = await seam.renameIfUnchanged(tmp, to, expected, gitLockFile);
  if (outcome !== 'renamed') return { outcome };
  const stamp = stampAsWritten(made, to);
  try {
    await seam.fsyncDir(path.dirname(to));
    return { outcome, stamp };
  } catch (err) {
    return { outcome, stamp, syncError: err as NodeJS.ErrnoException };
  }
}

/**
 * The stamp of `to`, taken just after our temp file (`made`, its stat before the rename) was
 * renamed there, when it is still that file: same inode, size and mtime (a rename changes only
 * the ctime). Anything that replaced or wrote the file in between fails the test and gives no
 * stamp, so the watcher reads the file as for any change. What one stat cannot tell apart (an
 * in-place write of the same size within the clock tick of ours) no stamp can, anywhere.
 */
function stampAsWritten(made: BigIntStats, to: string): string | undefined {
  const now = statSync(to, { bigint: true, throwIfNoEntry: false });
  if (now === undefined || now.ino !== made.ino || now.size !== made.size || now.mtimeNs !== made.mtimeNs) return undefined;
  return stampOfStats(now);
}

/**
 * Every step on the calling thread, only the fsyncs through libuv's pool. The store writes
 * through the disk threads instead (threaded-fs.ts); tests wrap this one to make steps fail.
 */
export const nodeFs: FsSeam & WriteSteps = {
  readFile: (file, rel) => readRegularFile(file, rel),
  stat: async (file) => statSync(file),
  async writeNewDurable(file, data, mode) {
    const fd = createFilled(file, data, mode);
    try {
      await fsyncFd(fd);
    } finally {
      closeSync(fd);
    }
  },
  renameIfUnchanged: async (from, to, expected, gitLockFile) => renameIfUnchangedSync(from, to, expected, gitLockFile),
  goAhead: (cell) => awaitGoAhead(cell),
  // Through `this`: a seam made by spreading nodeFs and overriding a step (tests) keeps its step.
  writeAndReplace(...args) {
    return writeAndReplaceBySteps(this, ...args);
  },
  unlink: async (file) => unlinkSync(file),
  async fsyncDir(dir) {
    const fd = openSync(dir, 'r');
    try {
      await fsyncFd(fd);
    } finally {
      closeSync(fd);
    }
  },
  mkdir: async (dir) => {
    mkdirSync(dir, { recursive: true });
  },
};

/**
 * A folder the store writes in (`.locks/`, `.tmp/`), made on first use rather than per write;
 * `forget()` after an ENOENT makes the next `ready()` create it again (someone removed it).
 */
export class FolderOnce {
  private made: Promise<void> | undefined;

  constructor(
    private readonly fs: FsSeam,
    readonly dir: string,
  ) {}

  ready(): Promise<void> {
    this.made ??= this.fs.mkdir(this.dir).catch((err: unknown) => {
      this.made = undefined;
      throw err;
    });
    return this.made;
  }

  forget(): void {
    this.made = undefined;
  }
}
