/**
 * The durable replace of one file: a temp file written and fsynced, then renamed over the file
 * only if the file still holds the bytes read (fs-seam.ts). The temp file goes in `<config>/.tmp/`
 * (made again if someone removed it, as `git clean -fdx` does), or beside the file when the
 * family folder is on another file system (EXDEV). Whatever happens, no temp file is left behind.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { tempPathFor } from '../files/temp-files.js';
import { FolderOnce, type FsSeam, type RenameOutcome } from './fs-seam.js';

export class FileReplacer {
  private readonly tempDir: FolderOnce;

  constructor(
    private readonly fs: FsSeam,
    tempDir: string,
  ) {
    this.tempDir = new FolderOnce(fs, tempDir);
  }

  /**
   * Replaces `abs` (which held `expected`) with `text`, in `mode`. 'changed' or 'gone' when the
   * file moved on since it was read (nothing written); `beforeRename` may throw to stop the write.
   * The folder is not fsynced here: the caller does, once the new file is served.
   */
  async replace(abs: string, mode: number, expected: Uint8Array, text: string, gitLockFile: string | null, beforeRename: () => void): Promise<RenameOutcome> {
    let dir: string | null = null; // null: .tmp/
    for (let attempt = 1; ; attempt++) {
      if (dir === null) await this.tempDir.ready();
      const tmp = tempPathFor(abs, dir ?? this.tempDir.dir);
      try {
        await this.fs.writeNewDurable(tmp, text, mode);
        beforeRename();
        const outcome = await this.fs.renameIfUnchanged(tmp, abs, expected, gitLockFile);
        if (outcome !== 'renamed') await this.removeQuietly(tmp);
        return outcome;
      } catch (err) {
        await this.removeQuietly(tmp);
        const code = (err as NodeJS.ErrnoException).code;
        if (attempt < 3 && code === 'EXDEV') {
          dir = path.dirname(abs); // the family folder is another file system (a mount)
          continue;
        }
        if (attempt < 3 && code === 'ENOENT' && dir === null && !existsSync(this.tempDir.dir)) {
          this.tempDir.forget();
          continue;
        }
        throw err;
      }
    }
  }

  private async removeQuietly(file: string): Promise<void> {
    await this.fs.unlink(file).catch(() => undefined);
  }
}
