/**
 * netcfg's own folders beside the networks (`.locks/`, `.tmp/`): made on first use rather than
 * per write, and made again after someone removed them (`git clean -fdx`).
 */
import type { DiskSteps } from './disk-steps.js';

/**
 * A folder the writer keeps (`.locks/`, `.tmp/`), made on first use rather than per write;
 * `forget()` after an ENOENT makes the next `ready()` create it again (someone removed it).
 */
export class FolderOnce {
  private made: Promise<void> | undefined;

  constructor(
    private readonly fs: DiskSteps,
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
