/**
 * The durable replace of one file: a temp file written and fsynced, then renamed over the file
 * only if the file still holds the bytes read (disk-steps.ts). The temp file goes in `<config>/.tmp/`
 * (made again if someone removed it, as `git clean -fdx` does), or beside the file when the
 * family folder is on another file system (EXDEV). Whatever happens, no temp file is left behind.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TEMP_DIR } from '../files/layout.js';
import { tempPathFor } from '../files/temp-files.js';
import type { DiskSteps, RenameOutcome } from './disk-steps.js';
import { FolderOnce } from './folder-once.js';

export class FileReplacer {
  private tempDir: FolderOnce | null = null;

  constructor(private readonly fs: DiskSteps) {}

  /** `.tmp/` of the folder whose real path is `realRoot` (made once, again after a deploy moved the folder). */
  private tempDirOf(realRoot: string): FolderOnce {
    const dir = path.join(realRoot, TEMP_DIR);
    if (this.tempDir?.dir !== dir) this.tempDir = new FolderOnce(this.fs, dir);
    return this.tempDir;
  }

  /**
   * Replaces `abs` (which held `expected`) with `text`, in `mode`. 'changed' or 'gone' when the
   * file moved on since it was read (nothing written); `beforeRename` may throw to stop the write.
   * The folder is not fsynced here: the caller does, once the new file is served. `realRoot` is the
   * config folder's real path as checked when the file was read: the temp file never goes elsewhere.
   */
  async replace(
    realRoot: string,
    abs: string,
    mode: number,
    expected: Uint8Array,
    text: string,
    gitLockFile: string | null,
    beforeRename: () => void,
  ): Promise<RenameOutcome> {
    const tempDir = this.tempDirOf(realRoot);
    let dir: string | null = null; // null: .tmp/
    for (let attempt = 1; ; attempt++) {
      if (dir === null) await tempDir.ready();
      const tmp = tempPathFor(abs, dir ?? tempDir.dir);
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
        if (attempt < 3 && code === 'ENOENT' && dir === null && !existsSync(tempDir.dir)) {
          tempDir.forget();
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
