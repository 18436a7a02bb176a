/**
 * chokidar on the config folder, through its documented API: the families and their files (depth
 * 1), links followed, our dot-folders and git's ignored. It only says *that* a path changed; the
 * watcher (watcher.ts) reads what changed back from disk.
 *
 * Three gaps of chokidar's are closed here (RELIABILITY.md F10, F12, F26):
 * - it ignores a second removal of a path within 100 ms of the first (a file git replaced twice
 *   in a row) and may stop reporting that file; so every name a family folder's own watch
 *   reports (chokidar's documented `raw` event) is passed on too, and the store reads that file;
 * - it lists a folder and only then watches it, so a family folder made between its listing of
 *   the config folder and that folder's watch, during the first walk, is never walked. Once
 *   chokidar is ready, each folder on disk it does not watch is added, and reported as `addDir`;
 * - it tells what came and went in a folder by name, so an entry of the config folder replaced
 *   under the same name between two of its listings (a family folder swapped for another or for a
 *   file, on a host busy enough that both steps land between them) is never seen, and the folder
 *   it watched, now gone, is the one it keeps watching. Each entry of the config folder is known
 *   here by its inode; when one that is or was a folder is replaced, chokidar is started afresh
 *   and `rewatched` is reported once it has walked the folder again. The root's own watch names
 *   each entry that changed (inotify), and every entry is also looked at each second (each interval when polling).
 */
import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isDirectoryPath, linkLeadsOut } from '../files/folder-listing.js';
import { classifyPath, isHidden } from '../files/layout.js';

/** How often the config folder's entries are looked at with inotify, beside the root's own events. */
const ROOT_LOOK_MS = 1000;

export interface ChokidarOptions {
  /** Poll instead of inotify (network file systems). */
  poll: boolean;
  pollIntervalMs: number;
}

/** chokidar's event name and the path relative to the root (posix separators; '' for the root). */
export type FolderListener = (event: string, rel: string) => void;

export class ChokidarEvents {
  private watcher: FSWatcher;
  readonly ready: Promise<void>;
  /** Each entry of the config folder as last seen ('d' or 'f', device and inode): see `rootEntry`. */
  private readonly entries = new Map<string, string>();
  private rewatching: Promise<void> | null = null;
  private rewatchAgain = false;
  private closed = false;
  /** The root's entries looked at every interval, or every second with inotify (see `rootEntries`). */
  private readonly rootLook: NodeJS.Timeout;

  constructor(
    readonly root: string,
    private readonly options: ChokidarOptions,
    private readonly listener: FolderListener,
    private readonly onError: (err: Error) => void,
  ) {
    const { watcher, ready } = this.start();
    this.watcher = watcher;
    this.ready = ready;
    this.rootLook = setInterval(() => this.rootEntries(), options.poll ? options.pollIntervalMs : ROOT_LOOK_MS);
    this.rootLook.unref();
  }

  /** Closes the watch there is now; a fresh start under way sees `closed` and starts none (see `rewatch`). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.rootLook);
    await this.watcher.close();
  }

  /** A chokidar watching the folder, and when it has walked it. */
  private start(): { watcher: FSWatcher; ready: Promise<void> } {
    this.entries.clear();
    for (const name of readNames(this.root)) this.entries.set(name, identity(path.join(this.root, name)));
    const root = this.root;
    const watcher = watch(root, {
      ignoreInitial: true,
      depth: 1,
      followSymlinks: true,
      usePolling: this.options.poll,
      interval: this.options.pollIntervalMs,
      binaryInterval: this.options.pollIntervalMs,
      ignored: (p: string) => isHidden(path.relative(root, p)) || behindLinkOut(root, p),
    });
    const current = (): boolean => watcher === this.watcher && !this.closed;
    watcher.on('all', (event: string, p: string) => {
      if (current()) this.listener(event, this.relative(p));
    });
    watcher.on('raw', (_event: string, name: string | null, details: unknown) => {
      if (!current()) return;
      const folder = (details as { watchedPath?: string } | undefined)?.watchedPath;
      // A file's own watch reports its own name (chokidar handles those).
      if (!folder || !name || path.basename(folder) === name) return;
      if (folder === root) return this.rootEntry(name);
      const rel = this.relative(path.join(folder, name));
      if (classifyPath(rel).kind === 'network') this.listener('change', rel);
    });
    watcher.on('error', (err) => {
      if (current()) this.onError(err as Error);
    });
    const ready = new Promise<void>((resolve) => {
      watcher.once('ready', () => {
        for (const dir of this.foldersNotWatched(watcher)) {
          watcher.add(dir);
          this.listener('addDir', this.relative(dir));
        }
        resolve();
      });
    });
    return { watcher, ready };
  }

  /** An entry of the config folder came, went or changed (the root's own watch named it). */
  private rootEntry(name: string): void {
    if (name.startsWith('.')) return;
    const was = this.entries.get(name) ?? '';
    const now = identity(path.join(this.root, name));
    if (now === was) return;
    if (now === '') this.entries.delete(name);
    else this.entries.set(name, now);
    if (!was.startsWith('d') && !now.startsWith('d')) return this.listener('change', name); // a file: looked at
    if (now === '') return; // a folder gone: its name is gone from chokidar's next listing too
    // A new folder whose name chokidar has not listed yet: its next listing adds it.
    if (was === '' && !(this.watcher.getWatched()[this.root] ?? []).includes(name)) return;
    this.rewatch();
  }

  /**
   * Every entry of the config folder, known or on disk, looked at as `rootEntry` does, from a timer. When polling,
   * not on chokidar's poll of the root: its first stat, the baseline, is taken some time after it is ready, and a
   * replacement before it was never seen (these entries were read before chokidar started). With inotify, beside the
   * root's events: a replacement whose event never came is still seen within a second (RELIABILITY.md F32).
   */
  private rootEntries(): void {
    for (const name of new Set([...this.entries.keys(), ...readNames(this.root)])) this.rootEntry(name);
  }

  /** chokidar started afresh on the folder (see the top of this file); `rewatched` once it has walked it. */
  private rewatch(): void {
    if (this.rewatching) {
      this.rewatchAgain = true;
      return;
    }
    const old = this.watcher;
    this.rewatching = (async () => {
      // Not from inside chokidar's own callback (the root's raw event): chokidar goes on in it to call the listeners
      // close() just removed (seen when its poll of the root called this: `listener is not a function`).
      await Promise.resolve();
      await old.close();
      if (this.closed) return;
      const { watcher, ready } = this.start();
      this.watcher = watcher;
      await ready;
      if (!this.closed) this.listener('rewatched', '');
    })()
      .catch((err: unknown) => this.onError(err as Error))
      .finally(() => {
        this.rewatching = null;
        if (this.rewatchAgain && !this.closed) {
          this.rewatchAgain = false;
          this.rewatch();
        }
      });
  }

  private relative(p: string): string {
    return path.relative(this.root, p).split(path.sep).join('/');
  }

  /** Folders in the root that chokidar's first walk missed (see the top of this file). */
  private foldersNotWatched(watcher: FSWatcher): string[] {
    const known = new Set(watcher.getWatched()[this.root] ?? []);
    return readNames(this.root)
      .map((name) => path.join(this.root, name))
      .filter((p) => !known.has(path.basename(p)) && isDirectoryPath(p));
  }
}

/** The entries of `folder` that are not hidden; none when it cannot be read (the store reports that). */
function readNames(folder: string): string[] {
  try {
    return fs.readdirSync(folder).filter((name) => !name.startsWith('.'));
  } catch {
    return [];
  }
}

/** 'd' (a folder, links followed) or 'f', then the entry's own device and inode; '' when nothing is there. */
function identity(p: string): string {
  try {
    const own = fs.lstatSync(p);
    const folder = own.isDirectory() || (own.isSymbolicLink() && isDirectoryPath(p));
    return `${folder ? 'd' : 'f'}:${own.dev}:${own.ino}`;
  } catch {
    return '';
  }
}

/**
 * Whether `p` is inside a family folder that is a link out of the config folder (`root`, a real
 * path): chokidar follows links, and what such a folder holds is not netcfg's to watch or name.
 */
function behindLinkOut(root: string, p: string): boolean {
  const [family, ...rest] = path.relative(root, p).split(path.sep);
  if (!family || rest.length === 0) return false;
  return linkLeadsOut(root, path.join(root, family));
}
