/**
 * The store's one seam to the file system for writes. Everything a PATCH does to disk goes through
 * an FsSeam, so tests can make the disk say no (ENOSPC, EIO, EROFS) where chmod cannot (root).
 */
import { promises as fsp, type Stats } from 'node:fs';

export interface FsSeam {
  readFile(file: string): Promise<Buffer>;
  stat(file: string): Promise<Stats>;
  /** Creates `file` (it must not exist) with `mode`, writes `data` and fsyncs it before closing. */
  writeNewDurable(file: string, data: string, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
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
  rename: (from, to) => fsp.rename(from, to),
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
