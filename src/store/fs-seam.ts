/**
 * The store's one seam to the file system for writes. Everything a PATCH does to disk goes through
 * an FsSeam, so tests can make the disk say no (ENOSPC, EIO, EROFS) where chmod cannot (root).
 */
import { promises as fsp, readFileSync, renameSync, type Stats } from 'node:fs';

export interface FsSeam {
  readFile(file: string): Promise<Buffer>;
  stat(file: string): Promise<Stats>;
  /** Creates `file` (it must not exist) with `mode`, writes `data` and fsyncs it before closing. */
  writeNewDurable(file: string, data: string, mode: number): Promise<void>;
  /**
   * Renames `from` over `to` only if `to` still exists and `unchanged(its bytes)` holds: 'gone'
   * or 'changed' otherwise, and `from` is left for the caller to remove. The check and the rename
   * happen in one synchronous step, so nothing in this process runs between them and another
   * process (git) has only microseconds to change the file in between.
   */
  renameIfUnchanged(from: string, to: string, unchanged: (bytes: Buffer) => boolean): Promise<'renamed' | 'gone' | 'changed'>;
  unlink(file: string): Promise<void>;
  /** fsync a directory, so a rename in it survives a power cut. */
  fsyncDir(dir: string): Promise<void>;
  mkdir(dir: string): Promise<void>;
}

export const nodeFs: FsSeam = {
  readFile: (file) => fsp.readFile(file),
  stat: (file) => fsp.stat(file),
  async writeNewDurable(file, data, mode) {
    const handle = await fsp.open(file, 'wx', mode);
    try {
      await handle.chmod(mode); // exact mode, whatever the umask
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  async renameIfUnchanged(from, to, unchanged) {
    let current: Buffer;
    try {
      current = readFileSync(to);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return 'gone';
      throw err;
    }
    if (!unchanged(current)) return 'changed';
    renameSync(from, to);
    return 'renamed';
  },
  unlink: (file) => fsp.unlink(file),
  async fsyncDir(dir) {
    const handle = await fsp.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  mkdir: async (dir) => {
    await fsp.mkdir(dir, { recursive: true });
  },
};
