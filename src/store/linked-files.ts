/**
 * A watch of its own for each network file that is a symbolic link, in chokidar's thread.
 * chokidar-thread.ts watches folders, not files: a folder's watch names every entry created,
 * removed, renamed or written in it, but a link's target lives elsewhere (`evm/alias.yaml ->
 * ../.shared/base.yaml`), and an edit of the target shows in no watched folder. inotify follows
 * the link, so a watch on the link's path is a watch on the file it points to.
 */
import fs from 'node:fs';

interface LinkWatch {
  watcher: fs.FSWatcher;
  /** The inode watched: when the link's path leads to another one, the watch is made again. */
  ino: number;
}

export class LinkedFiles {
  private readonly watches = new Map<string, LinkWatch>();

  /** `changed` gets the link's path whenever the file it leads to may have changed. */
  constructor(private readonly changed: (file: string) => void) {}

  /**
   * A link listed in a folder (chokidar lists it on every re-read of the folder): watch what the
   * path leads to now (once; again when it leads to another file: the link re-pointed).
   */
  check(file: string): void {
    const watch = this.watches.get(file);
    if (watch && inodeBehind(file) === watch.ino) return;
    this.drop(file);
    this.arm(file);
  }

  /** The link's path is gone (or no longer a link). */
  drop(file: string): void {
    const watch = this.watches.get(file);
    if (!watch) return;
    this.watches.delete(file);
    watch.watcher.close();
  }

  close(): void {
    for (const file of [...this.watches.keys()]) this.drop(file);
  }

  private arm(file: string): void {
    if (!fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) return; // the folder's watch covers it
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(file, { persistent: false }, () => this.onEvent(file));
    } catch {
      return; // dangling: nothing to watch (the store reports what it finds at that path)
    }
    // Stat after the watch is on: a replacement in between then shows as an inode that differs.
    const target = fs.statSync(file, { throwIfNoEntry: false });
    if (!target?.isFile()) {
      watcher.close(); // gone meanwhile, or a link to a folder (chokidar walks those)
      return;
    }
    watcher.on('error', () => this.drop(file));
    this.watches.set(file, { watcher, ino: target.ino });
    this.changed(file); // what changed before the watch was on is read now
  }

  private onEvent(file: string): void {
    if (!this.watches.has(file)) return; // an event of a watch since closed
    this.changed(file);
    // The target replaced (git and editors write a new inode): watch the new one.
    this.check(file);
  }
}

/** The inode a link's path leads to; undefined when the path is no link or leads nowhere. */
function inodeBehind(file: string): number | undefined {
  if (!fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) return undefined;
  return fs.statSync(file, { throwIfNoEntry: false })?.ino;
}
