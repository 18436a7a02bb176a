/**
 * A worker thread that runs chokidar (chokidar-events.ts) and sends its events to the watcher in
 * batches, one message per turn of the loop (a git checkout makes thousands of events). chokidar
 * lists a family folder again on events in it, and sets up a watch per file; here that work
 * does not compete with requests on the main thread (docs/architecture.md has the A/B).
 *
 * In: workerData {root, poll, pollIntervalMs}; the message 'close'.
 * Out: {type: 'events', events: [[event, rel], ...]}, {type: 'ready'}, {type: 'error', message}, {type: 'closed'}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ChokidarEvents, type ChokidarOptions } from './chokidar-events.js';

export type ThreadMessage =
  | { type: 'events'; events: Array<[string, string]> }
  | { type: 'ready' }
  | { type: 'error'; message: string }
  | { type: 'closed' };

const port = parentPort!;
const { root, ...options } = workerData as ChokidarOptions & { root: string };
const send = (message: ThreadMessage): void => port.postMessage(message);

let batch: Array<[string, string]> = [];
function flush(): void {
  if (batch.length === 0) return;
  send({ type: 'events', events: batch });
  batch = [];
}

const chokidar = new ChokidarEvents(
  root,
  options,
  (event, rel) => {
    if (batch.length === 0) setImmediate(flush);
    batch.push([event, rel]);
  },
  (err) => send({ type: 'error', message: err.message }),
);
void chokidar.ready.then(() => {
  flush(); // what came before 'ready' reaches the watcher before it
  send({ type: 'ready' });
});
port.on('message', (message) => {
  if (message === 'close') void chokidar.close().then(() => send({ type: 'closed' }));
});
