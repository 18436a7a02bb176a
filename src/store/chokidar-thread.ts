/**
 * chokidar, in a worker thread of its own. chokidar re-reads a folder (an lstat per entry) every
 * time something in it changes, and keeps a watch per file; measured here, doing that on the
 * main thread more than doubled the time of a PATCH (4 ms -> 10 ms) and slowed every read. In
 * this thread it costs the server's requests nothing but a message per batch of events.
 *
 * In: workerData {root, poll, pollIntervalMs}; the message 'close'.
 * Out: {type: 'events', events: [[event, relativePath], ...]}, {type: 'ready'},
 *      {type: 'error', message}, {type: 'closed'}.
 */
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { watch } from 'chokidar';

const { root, poll, pollIntervalMs } = workerData as { root: string; poll: boolean; pollIntervalMs: number };
const port = parentPort!;

const watcher = watch(root, {
  ignoreInitial: true,
  depth: 1,
  followSymlinks: true,
  usePolling: poll,
  interval: pollIntervalMs,
  binaryInterval: pollIntervalMs,
  // Our temp files, lock folders and git's files all start with a dot.
  ignored: (p: string) => path.relative(root, p).split(path.sep).some((part) => part.startsWith('.')),
});

// Events of one turn of the loop (a git checkout sends thousands) go in one message, in order.
let batch: Array<[string, string]> = [];
watcher.on('all', (event, p) => {
  if (batch.length === 0) setImmediate(flush);
  batch.push([event, path.relative(root, p).split(path.sep).join('/')]);
});
function flush(): void {
  port.postMessage({ type: 'events', events: batch });
  batch = [];
}
watcher.on('error', (err) => port.postMessage({ type: 'error', message: (err as Error).message }));
watcher.once('ready', () => port.postMessage({ type: 'ready' }));
port.on('message', (message) => {
  if (message !== 'close') return;
  void watcher.close().then(() => port.postMessage({ type: 'closed' }));
});
