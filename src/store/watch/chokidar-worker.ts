/**
 * The main thread's side of chokidar-thread.ts: the same shape as ChokidarEvents (a `ready`
 * promise, `close()`, events to a listener), with chokidar in its own worker thread.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ChokidarOptions, FolderListener } from './chokidar-events.js';
import type { ThreadMessage } from './chokidar-thread.js';

/** `.js` when built, `.ts` under tsx (tests), where the worker must register tsx's loader first. */
const EXT = path.extname(fileURLToPath(import.meta.url));

function startThread(workerData: unknown): Worker {
  const url = new URL(`./chokidar-thread${EXT}`, import.meta.url);
  if (EXT !== '.ts') return new Worker(url, { workerData });
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

export class ChokidarWorker {
  readonly ready: Promise<void>;
  private readonly thread: Worker;
  private closed = false;

  /** `onFailed` is told when the thread ends without being asked to. */
  constructor(
    root: string,
    options: ChokidarOptions,
    listener: FolderListener,
    onError: (err: Error) => void,
    onFailed: (err: Error) => void,
  ) {
    this.thread = startThread({ root, ...options });
    this.ready = new Promise((resolve) => {
      this.thread.on('message', (message: ThreadMessage) => {
        if (message.type === 'events') for (const [event, rel] of message.events) listener(event, rel);
        else if (message.type === 'ready') resolve();
        else if (message.type === 'error') onError(new Error(message.message));
      });
      this.thread.once('error', (err) => {
        onFailed(err);
        resolve();
      });
      this.thread.once('exit', (code) => {
        if (!this.closed) onFailed(new Error(`the watcher thread exited (code ${code})`));
        resolve();
      });
    });
  }

  /** Asks chokidar to close its watches (up to 2 s), then ends the thread. */
  async close(): Promise<void> {
    this.closed = true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2000);
      this.thread.on('message', (message: ThreadMessage) => {
        if (message.type === 'closed') {
          clearTimeout(timer);
          resolve();
        }
      });
      this.thread.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.thread.postMessage('close');
    });
    await this.thread.terminate();
  }
}
