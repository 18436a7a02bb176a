/**
 * An DiskSteps that makes the disk say no at one chosen step of a PATCH, with a chosen errno, until
 * told to recover. Failures look like the real thing: a full disk fails a write after the temp
 * file was created and partly written, so the writer has to clean up after itself.
 */
import { promises as fsp } from 'node:fs';
import { realDisk, type DiskSteps, type RenameOutcome } from '../../src/store/write/disk-steps.js';

export type FailingStep = 'mkdir' | 'readFile' | 'writeNewDurable' | 'rename' | 'fsyncDir';

export class FailingFs implements DiskSteps {
  /** The step that fails and how; null once the disk is healthy again. */
  failure: { step: FailingStep; code: string } | null = null;
  /** How many times the failing step was reached. */
  hits = 0;

  private fail(step: FailingStep): void {
    if (this.failure?.step !== step) return;
    this.hits++;
    const err = new Error(`${this.failure.code}: injected at ${step}`) as NodeJS.ErrnoException;
    err.code = this.failure.code;
    throw err;
  }

  readFile = async (file: string): Promise<Buffer> => {
    this.fail('readFile');
    return realDisk.readFile(file);
  };

  stat = (file: string) => realDisk.stat(file);

  writeNewDurable = async (file: string, data: string, mode: number): Promise<void> => {
    if (this.failure?.step === 'writeNewDurable') {
      // Half a file reaches the disk before it fills up.
      await fsp.writeFile(file, data.slice(0, Math.floor(data.length / 2)), { flag: 'wx', mode });
    }
    this.fail('writeNewDurable');
    return realDisk.writeNewDurable(file, data, mode);
  };

  renameIfUnchanged = async (
    from: string,
    to: string,
    expected: Uint8Array,
    gitLockFile: string | null,
  ): Promise<RenameOutcome> => {
    this.fail('rename');
    return realDisk.renameIfUnchanged(from, to, expected, gitLockFile);
  };

  unlink = (file: string) => realDisk.unlink(file);

  fsyncDir = async (dir: string): Promise<void> => {
    this.fail('fsyncDir');
    return realDisk.fsyncDir(dir);
  };

  mkdir = async (dir: string): Promise<void> => {
    this.fail('mkdir');
    return realDisk.mkdir(dir);
  };
}
