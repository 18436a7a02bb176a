/**
 * The steps a PATCH takes on disk, with fs/promises. The writer calls them in order; tests wrap
 * this same object and make one step fail (ENOSPC, EIO, EROFS) where chmod cannot (root), so the
 * disk-failure tests run the path that ships.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, renameSync, statSync, type Stats } from 'node:fs';
import { mkdir, open, stat, unlink } from 'node:fs/promises';
import { READ_REGULAR, isGone, readRegularFile } from '../files/served-file.js';

export type RenameOutcome = 'renamed' | 'gone' | 'changed';

export interface FsSeam {
  /** A network file's bytes, refused unless a regular file (served-file.ts); `rel` names it in errors. */
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
export function renameIfUnchangedSync(from: string, to: string, expected: Uint8Array, gitLockFile: string | null): RenameOutcome {
  let fd: number;
  try {
    // Without blocking or following a link: `to` was a regular file when read, and anything
    // else there now (a FIFO, a link) is a change, which the caller looks at again.
    fd = openSync(to, READ_REGULAR);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') return 'changed';
    return goneOr(err);
  }
  try {
    const read = fstatSync(fd, { bigint: true });
    if (!read.isFile() || read.size !== BigInt(expected.length)) return 'changed';
    if (!readFileSync(fd).equals(expected)) return 'changed';
    // A git command that started meanwhile counts as a change: the caller reads again once it is done.
    if (gitLockFile !== null && existsSync(gitLockFile)) return 'changed';
    // Still the file read (a checkout replaces files by rename): one stat, the last call before the rename.
    const now = statSync(to, { bigint: true });
    if (now.ino !== read.ino || now.size !== read.size || now.mtimeNs !== read.mtimeNs || now.ctimeNs !== read.ctimeNs) return 'changed';
    // An ENOENT here is our temp file's (.tmp/ removed), thrown for the caller to make it again.
    renameSync(from, to);
    return 'renamed';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).syscall === 'rename') throw err;
    return goneOr(err);
  } finally {
    closeSync(fd);
  }
}

/** 'gone' for a file (or its folder) that is not there; any other error is thrown. */
function goneOr(err: unknown): 'gone' {
  if (isGone(err)) return 'gone';
  throw err;
}

async function syncPath(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The real disk. */
export const nodeFs: FsSeam = {
  readFile: (file, rel) => readRegularFile(file, rel),
  stat: (file) => stat(file),
  async writeNewDurable(file, data, mode) {
    const handle = await open(file, 'wx', mode);
    try {
      await handle.chmod(mode); // exactly the file's mode, whatever the umask
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  renameIfUnchanged: async (from, to, expected, gitLockFile) => renameIfUnchangedSync(from, to, expected, gitLockFile),
  fsyncDir: syncPath,
  unlink: (file) => unlink(file),
  mkdir: async (dir) => {
    await mkdir(dir, { recursive: true });
  },
};

/**
 * A folder the writer keeps (`.locks/`, `.tmp/`), made on first use rather than per write;
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
