/**
 * What the writer knows of the disk: the last write it refused (readiness shows it until a write
 * succeeds again), the folder's fsync after a rename, and the proof that the disk is back (a retry
 * that finds nothing to change syncs the folder once more). network-writer.ts holds one.
 */
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import { isGone } from '../files/folder-file.js';
import { fileGone, storageError } from './current-file.js';
import type { DiskSteps } from './disk-steps.js';

export class DiskHealth {
  /** The last write the disk refused, and the folder whose fsync failed, if that was it. */
  private last: { at: Date; message: string; dir?: string } | null = null;

  /** `root`: the config folder, for the path an error names. */
  constructor(
    private readonly fs: DiskSteps,
    private readonly root: string,
  ) {}

  /** Hears what the disk refused (current-file.ts' storageError calls it). */
  readonly refused = (message: string): void => {
    this.last = { at: new Date(), message };
  };

  /** The last write the disk refused, until a write succeeds again. */
  failure(): { at: Date; message: string } | null {
    return this.last;
  }

  /** Whether a write was refused and none has succeeded since. */
  get failing(): boolean {
    return this.last !== null;
  }

  /** The folder's fsync after the rename of `rel` (in `dir`): without it the rename may not survive a power cut. */
  async syncFolder(dir: string, rel: string, etag: string): Promise<void> {
    try {
      await this.fs.fsyncDir(dir);
      this.last = null;
    } catch (err) {
      if (isGone(err)) throw fileGone();
      const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      // The new file is in place but may not survive a power cut; say so rather than "unchanged".
      const message = `The new ${rel} was written but the disk refused to sync its folder (${code}); it may not survive a crash. Retry later.`;
      this.last = { at: new Date(), message, dir };
      throw new NetcfgError('STORAGE_UNAVAILABLE', message, { cause: err, etag });
    }
  }

  /**
   * After a refused write, a retry that finds nothing to change still proves the disk is back:
   * sync the folder (a rename may still be unsynced from the failure) and clear the failure.
   */
  async heal(dir: string): Promise<void> {
    try {
      await this.fs.fsyncDir(this.last?.dir ?? dir);
      this.last = null;
    } catch (err) {
      throw storageError(err, `sync ${path.relative(this.root, dir) || '.'}`, this.refused);
    }
  }
}
