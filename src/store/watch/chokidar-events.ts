/**
 * chokidar on the config folder, through its documented API: the families and their files (depth
 * 1), links followed, our dot-folders and git's ignored. It only says *that* a path changed; the
 * watcher (watcher.ts) reads what changed back from disk.
 *
 * Two gaps of chokidar's are closed here (RELIABILITY.md F10, F12):
 * - it ignores a second removal of a path within 100 ms of the first (a file git replaced twice
 *   in a row) and may stop reporting that file; so every name a family folder's own watch
 *   reports (chokidar's documented `raw` event) is passed on too, and the store reads that file;
 * - it lists a folder and only then watches it, so a family folder made between its listing of
 *   the config folder and that folder's watch, during the first walk, is never walked. Once
 *   chokidar is ready, each folder on disk it does not watch is added, and reported as `addDir`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isDirectoryPath, linkLeadsOut } from '../files/folder-listing.js';
import { classifyPath, isHidden } from '../files/layout.js';

export interface ChokidarOptions {
  /** Poll instead of inotify (network file systems). */
  poll: boolean;
  pollIntervalMs: number;
}

/** chokidar's event name and the path relative to the root (posix separators; '' for the root). */
export type FolderListener = (event: string, rel: string) => void;

export class ChokidarEvents {
  private readonly watcher: FSWatcher;
  readonly ready: Promise<void>;

  constructor(
    readonly root: string,
    options: ChokidarOptions,
    listener: FolderListener,
    onError: (err: Error) => void,
  ) {
    this.watcher = watch(root, {
      ignoreInitial: true,
      depth: 1,
      followSymlinks: true,
      usePolling: options.poll,
      interval: options.pollIntervalMs,
      binaryInterval: options.pollIntervalMs,
      ignored: (p: string) => isHidden(path.relative(root, p)) || behindLinkOut(root, p),
    });
    this.watcher.on('all', (event: string, p: string) => listener(event, this.relative(p)));
    this.watcher.on('raw', (_event: string, name: string | null, details: unknown) => {
      const folder = (details as { watchedPath?: string } | undefined)?.watchedPath;
      // Polling has no such events; a file's own watch reports its own name (chokidar handles those).
      if (!folder || !name || path.basename(folder) === name) return;
      const rel = this.relative(path.join(folder, name));
      if (classifyPath(rel).kind === 'network') listener('change', rel);
    });
    this.watcher.on('error', (err) => onError(err as Error));
    this.ready = new Promise((resolve) => {
      this.watcher.once('ready', () => {
        for (const dir of this.foldersNotWatched()) {
          this.watcher.add(dir);
          listener('addDir', this.relative(dir));
        }
        resolve();
      });
    });
  }

  close(): Promise<void> {
    return this.watcher.close();
  }

  private relative(p: string): string {
    return path.relative(this.root, p).split(path.sep).join('/');
  }

  /** Folders in the root that chokidar's first walk missed (see the top of this file). */
  private foldersNotWatched(): string[] {
    const watched = this.watcher.getWatched();
    const known = new Set(watched[this.root] ?? []);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(this.root, { withFileTypes: true });
    } catch {
      return []; // the folder itself is gone: the store sees that
    }
    return entries
      .filter(
        (e) =>
          !known.has(e.name) &&
          !e.name.startsWith('.') &&
          (e.isDirectory() || (e.isSymbolicLink() && isDirectoryPath(path.join(this.root, e.name)))),
      )
      .map((e) => path.join(this.root, e.name));
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
