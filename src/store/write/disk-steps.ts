/**
 * The steps a PATCH takes on disk. The writer calls them in order; tests wrap this same object
 * and make one step fail (ENOSPC, EIO, EROFS) where chmod cannot (root), so the disk-failure tests
 * run the path that ships.
 *
 * Calls that wait for the disk (the two fsyncs) and the close that frees a replaced file go through
 * libuv's thread pool; the others are synchronous calls of microseconds on a file of a few hundred
 * bytes. A trip through the pool costs far more than such a call (docs/architecture.md: a PATCH
 * made 19 trips through fs/promises, 5 this way).
 */
import {
  close,
  closeSync,
  existsSync,
  fchmodSync,
  fstatSync,
  fsync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { promisify } from 'node:util';
import { READ_REGULAR, isGone, readRegularFile } from '../files/folder-file.js';

const fsyncFd = promisify(fsync);
const closeFd = promisify(close);

export type RenameOutcome = 'renamed' | 'gone' | 'changed';

export interface DiskSteps {
  /** A network file's bytes, refused unless a regular file (folder-file.ts); `rel` names it in errors. */
  readFile(file: string, rel?: string): Promise<Buffer>;
  stat(file: string): Promise<Stats>;
  /** Creates `file` (it must not exist) with exactly `mode`, writes `data` and fsyncs it before closing. */
  writeNewDurable(file: string, data: string, mode: number): Promise<void>;
  /**
   * Renames `from` over `to` only if `to` still holds exactly `expected` and `gitLockFile` (when
   * given) does not exist: 'gone' or 'changed' otherwise, and `from` is left for the caller.
   */
  renameIfUnchanged(from: string, to: string, expected: Uint8Array, gitLockFile: string | null): Promise<RenameOutcome>;
  /** fsync a directory, so a rename in it survives a power cut. */
  fsyncDir(dir: string): Promise<void>;
  unlink(file: string): Promise<void>;
  mkdir(dir: string): Promise<void>;
}

/**
 * The check and the rename in one synchronous step: nothing in this process runs between them,
 * and another process (a git checkout) has microseconds, not an event-loop turn, to change the
 * file in between (RELIABILITY.md). A handful of system calls on a file of a few hundred bytes.
 */
export function renameIfUnchangedSync(
  from: string,
  to: string,
  expected: Uint8Array,
  gitLockFile: string | null,
  closeReplaced: (fd: number) => void = closeSync,
): RenameOutcome {
  let fd: number;
  try {
    // Without blocking or following a link: `to` was a regular file when read, and anything
    // else there now (a FIFO, a link) is a change, which the caller looks at again.
    fd = openSync(to, READ_REGULAR);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') return 'changed';
    return goneOr(err);
  }
  let renamed = false;
  try {
    const read = fstatSync(fd, { bigint: true });
    if (!read.isFile() || read.size !== BigInt(expected.length)) return 'changed';
    if (!readFileSync(fd).equals(expected)) return 'changed';
    // A git command that started meanwhile counts as a change: the caller reads again once it is done.
    if (gitLockFile !== null && existsSync(gitLockFile)) return 'changed';
    // Still the file read (a checkout replaces files by rename): one stat, the last call before the rename.
    const now = statSync(to, { bigint: true });
    if (now.ino !== read.ino || now.size !== read.size || now.mtimeNs !== read.mtimeNs || now.ctimeNs !== read.ctimeNs)
      return 'changed';
    // An ENOENT here is our temp file's (.tmp/ removed), thrown for the caller to make it again.
    renameSync(from, to);
    renamed = true;
    return 'renamed';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).syscall === 'rename') throw err;
    return goneOr(err);
  } finally {
    // Once renamed over, the file read is freed at this close (its blocks given back): the caller may do that off this thread.
    (renamed ? closeReplaced : closeSync)(fd);
  }
}

/** 'gone' for a file (or its folder) that is not there; any other error is thrown. */
function goneOr(err: unknown): 'gone' {
  if (isGone(err)) return 'gone';
  throw err;
}

/** fsync of an open descriptor through the thread pool (it waits for the disk), then its close. */
async function syncAndClose(fd: number): Promise<void> {
  try {
    await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

/** The real disk. */
export const realDisk: DiskSteps = {
  readFile: async (file, rel) => readRegularFile(file, rel),
  stat: async (file) => statSync(file),
  async writeNewDurable(file, data, mode) {
    const fd = openSync(file, 'wx', mode);
    try {
      fchmodSync(fd, mode); // exactly the file's mode, whatever the umask
      writeFileSync(fd, data, 'utf8');
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    await syncAndClose(fd);
  },
  async renameIfUnchanged(from, to, expected, gitLockFile) {
    let replaced: number | null = null;
    const outcome = renameIfUnchangedSync(from, to, expected, gitLockFile, (fd) => (replaced = fd));
    if (replaced !== null) await closeFd(replaced);
    return outcome;
  },
  fsyncDir: async (dir) => syncAndClose(openSync(dir, 'r')),
  unlink: async (file) => unlinkSync(file),
  mkdir: async (dir) => {
    mkdirSync(dir, { recursive: true });
  },
};
