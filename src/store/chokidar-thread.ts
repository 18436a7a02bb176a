/**
 * chokidar, in a worker thread of its own. chokidar re-reads a folder (an lstat per entry) every
 * time something in it changes; measured here, doing that on the main thread more than doubled
 * the time of a PATCH (4 ms -> 10 ms) and slowed every read. In this thread it costs the
 * server's requests nothing but a message per batch of events. It watches folders, not files
 * (below), except files that are symbolic links.
 *
 * In: workerData {root, poll, pollIntervalMs}; the message 'close'.
 * Out: {type: 'events', events: [[event, relativePath], ...]} (chokidar's events, and `touch` or
 *      `write` for a name a folder's watch reported or a linked file whose target changed),
 *      {type: 'ready'},
 *      {type: 'error', message}, {type: 'closed'}.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { watch } from 'chokidar';
import { NodeFsHandler } from 'chokidar/handler.js';
import { keepTickShape } from '../tick-shape.js';
import { LinkedFiles } from './linked-files.js';

// chokidar re-reads a whole folder on every event in it, with an lstat per entry through
// fs/promises; on these machines each trip through libuv's thread pool costs 50-90 us of CPU
// where the call itself takes ~5 us (measured: this thread's CPU per PATCH in a folder of 83 files
// went from 4.8 ms to 2.1 ms). This thread exists only for chokidar, so blocking it costs nothing:
// here alone, lstat and stat resolve from lstatSync and statSync (same results, same errors;
// Node keeps the named exports of built-in modules in step; stat is what chokidar calls on each
// entry it adds, and on a polled file). Not readdir: a synchronous readdir changed what chokidar
// reported in a burst of writes and deletes (test/store/watcher.test.ts caught it), so it stays.
fsp.lstat = (async (p: fs.PathLike, o?: fs.StatOptions) => fs.lstatSync(p, o)) as typeof fsp.lstat;
fsp.stat = (async (p: fs.PathLike, o?: fs.StatOptions) => fs.statSync(p, o)) as typeof fsp.stat;

syncBuiltinESMExports();

// chokidar answers each event of a folder by re-reading the whole folder, an lstat per entry, to
// find files added or removed. When files are written one after another (every PATCH) the
// re-reads are most of this thread's CPU. So a folder is re-read at most once per window: at
// once, then once more at the window's end if events came meanwhile. Every name the folder's own
// watch reports reaches the store at once as a `touch` (below), so the index never waits for a
// re-read: only chokidar's own books (which files there are) lag by up to a window. (Merging the
// events themselves lost changes; test/store/watcher.test.ts has the git-style case.)
// One second, as chokidar's own readdir throttle: at 100 ms, one PATCH after another across the
// twelve family folders of the bench's 1,000 networks still cost this thread ~330 us of CPU per
// PATCH (an lstat and chokidar's bookkeeping per entry, ~20 entries a PATCH); at 1 s ~170 us, and
// on two cores that CPU is taken from the writes (3 runs of 4 s, one connection: 391/521/589
// PATCH/s against 338/509/563; bench/README.md).
const FOLDER_REREAD_WINDOW_MS = 1000;
const handlerProto = NodeFsHandler.prototype;
const { root, poll, pollIntervalMs } = workerData as { root: string; poll: boolean; pollIntervalMs: number };

// No watch per file: the watch of each family folder already names every entry created,
// removed, renamed or written in it (the `touch` and `write` below), and the store reads each file
// it is told of. A watch per file was one inotify watch, one handle and chokidar's books per
// network, and an event of its own to handle for every write (measured: this thread's CPU per
// one-connection PATCH ~186 -> ~100 us; RSS once 100,000 networks are watched 971 -> 765 MB).
// Only chokidar's bookkeeping of the file is kept (it is what `_watchWithNodeFs` does first), so
// its `add` and `unlink` events stay as they were. Polling has no folder events: it keeps its
// per-file polls. A file that is a symbolic link keeps a watch of its own (linked-files.ts).
const linkedFiles = new LinkedFiles((file) => send('write', file));
const watchWithNodeFs = handlerProto._watchWithNodeFs;
const handleFile = handlerProto._handleFile;
const handleSymlink = handlerProto._handleSymlink;
let watchingFile = false;
handlerProto._handleFile = function fileInFolder(this: NodeFsHandler, ...args: Parameters<typeof handleFile>) {
  watchingFile = !poll;
  try {
    return handleFile.apply(this, args);
  } finally {
    watchingFile = false;
  }
};
handlerProto._watchWithNodeFs = function folderWatchOnly(this: NodeFsHandler, ...args: Parameters<typeof watchWithNodeFs>) {
  if (!watchingFile) return watchWithNodeFs.apply(this, args);
  const [file] = args;
  (this as unknown as ChokidarBooks).fsw._getWatchedDir(path.dirname(file)).add(path.basename(file));
  return () => undefined;
};
handlerProto._handleSymlink = function linkInFolder(this: NodeFsHandler, ...args: Parameters<typeof handleSymlink>) {
  if (!poll) linkedFiles.check(args[2]); // every re-read of its folder: a link re-pointed is seen there
  return handleSymlink.apply(this, args);
};
/** The part of chokidar's FSWatcher that a file's watch would have updated. */
interface ChokidarBooks {
  fsw: { _getWatchedDir(dir: string): { add(name: string): void } };
}

const reread = handlerProto._handleRead;
/** A folder's open window: the handler to re-read with, and the latest call that came meanwhile. */
interface RereadWindow {
  handler: NodeFsHandler;
  next: Parameters<typeof reread> | null;
}
const windows = new Map<string, RereadWindow>();
handlerProto._handleRead = function windowed(this: NodeFsHandler, ...args: Parameters<typeof reread>) {
  const [directory, initialAdd] = args;
  if (initialAdd) return reread.apply(this, args); // the first walk (awaited): never deferred
  const key = path.join(directory, '');
  const open = windows.get(key);
  if (open) {
    open.next = args;
    return Promise.resolve();
  }
  const window: RereadWindow = { handler: this, next: null };
  const close = (): void => {
    if (window.next === null) {
      windows.delete(key);
      return;
    }
    const next = window.next;
    window.next = null;
    setTimeout(close, FOLDER_REREAD_WINDOW_MS).unref();
    reread.apply(window.handler, next)?.catch(() => undefined); // nobody awaits a deferred re-read
  };
  windows.set(key, window);
  setTimeout(close, FOLDER_REREAD_WINDOW_MS).unref();
  return reread.apply(this, args);
};

// A long-lived thread, GCed on its own: see tick-shape.ts.
void keepTickShape();
const port = parentPort!;
const rootPrefix = root.endsWith(path.sep) ? root : root + path.sep;

const watcher = watch(root, {
  ignoreInitial: true,
  depth: 1,
  followSymlinks: true,
  usePolling: poll,
  interval: pollIntervalMs,
  binaryInterval: pollIntervalMs,
  ignored: isIgnored,
});

// Our temp files, lock folders and git's files all start with a dot. Called for every entry of
// every re-read, so a string search rather than path.relative (a fifth of this thread's CPU).
function isIgnored(p: string): boolean {
  if (p.startsWith(rootPrefix)) return p.includes(`${path.sep}.`, rootPrefix.length - 1);
  return path.relative(root, p).split(path.sep).some((part) => part.startsWith('.'));
}

// Events of one turn of the loop (a git checkout sends thousands) go in one message, in order.
let batch: Array<[string, string]> = [];
let touched = new Set<string>();
function send(event: string, p: string): void {
  if (batch.length === 0) setImmediate(flush);
  batch.push([event, path.relative(root, p).split(path.sep).join('/')]);
}
function flush(): void {
  if (batch.length === 0) return; // flushed early, before 'ready'
  port.postMessage({ type: 'events', events: batch });
  batch = [];
  touched = new Set();
}
watcher.on('all', (event: string, p: string) => {
  if (event === 'unlink') linkedFiles.drop(p);
  send(event, p);
});

// The folder's own inotify watch names every entry created, deleted, renamed or written in it;
// each name it reports is passed on as a `touch`, and the store reads that file back from disk.
// Files have no watch of their own (above), so these are the store's file events; chokidar adds
// what its re-reads find (a file's add or unlink, folders). They also close a gap of chokidar's:
// it forgets a file it sees removed twice within 100 ms (its `_remove` is throttled per path), and
// never reports that file again (a file git replaced in two quick rounds; test/store/watcher.test.ts
// caught it in CI). Polling has no folder events (watchedPath is absent there).
// A name written in place (the folder's 'change', not a 'rename') goes as `write`: the store
// then always reads it, even when its stat looks like the store's own last write (watcher.ts).
watcher.on('raw', (event: string, name: string | null, details) => {
  const folder = (details as { watchedPath?: string } | undefined)?.watchedPath;
  if (!folder || !name || path.basename(folder) === name) return; // polling, or a folder's own name
  const full = path.join(folder, name);
  const kind = event === 'change' ? 'write' : 'touch';
  if (touched.has(kind + full) || isIgnored(full)) return;
  touched.add(kind + full);
  send(kind, full);
});
// chokidar lists a folder, then watches it: what is made in between sends no event. Two gaps
// follow from that (test/store/watcher-start.test.ts; seen as a 10,000-file family never served
// in test/reliability/bad-files.test.ts):
// - a family folder made during the first walk, between the listing of the config folder and
//   its watch, is never walked: chokidar learns of it only from a later event in the config
//   folder. Once the walk is done, each folder on disk that chokidar did not walk is added.
// - a file made in a new family folder between its listing and its watch is never reported.
//   Once the watch is on, a `watched` event tells the index to look at that family (a stat per
//   file, a read only for what changed); the first walk needs none, the store looks at
//   everything once chokidar is ready.
const handleDir = handlerProto._handleDir;
const walked = new Set<string>();
const addedLate = new Set<string>();
handlerProto._handleDir = async function watchedDir(this: NodeFsHandler, ...args: Parameters<typeof handleDir>) {
  const [dir, , initialAdd] = args;
  walked.add(dir);
  const closer = await handleDir.apply(this, args);
  if (closer && (!initialAdd || addedLate.delete(dir))) send('watched', dir);
  return closer;
};

function addFoldersNotWalked(): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return; // the folder itself is gone: the store sees that
  }
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    if (walked.has(full) || isIgnored(full) || !(entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(full)))) continue;
    addedLate.add(full);
    watcher.add(full);
  }
}

function isDirectory(p: string): boolean {
  return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

watcher.on('error', (err) => port.postMessage({ type: 'error', message: (err as Error).message }));
watcher.once('ready', () => {
  addFoldersNotWalked();
  if (batch.length > 0) flush(); // what came before 'ready' reaches the store before it
  port.postMessage({ type: 'ready' });
});
port.on('message', (message) => {
  if (message !== 'close') return;
  linkedFiles.close();
  void watcher.close().then(() => port.postMessage({ type: 'closed' }));
});
