/**
 * Keeps the index in step with the folder. chokidar says *that* something changed; what changed
 * is always read back from disk. Each network id has its own debounce: after the last event it
 * waits `debounceMs`, reads the files, then waits `stableMs` and checks that nothing moved
 * (inode, size, mtime, ctime) before serving the bytes. An in-place write whose `change` event
 * fires before the writer is done (measured here: one event in three read an empty file) is
 * therefore never served, and a write whose event chokidar throttled away is still read.
 */
import { realpathSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { classifyPath } from './network-id.js';
import type { DiskSync } from './disk-sync.js';
import { stampOf } from './folder-listing.js';
import { startModuleWorker } from './module-worker.js';

type ThreadMessage =
  | { type: 'events'; events: Array<[string, string]> }
  | { type: 'ready' }
  | { type: 'error'; message: string }
  | { type: 'closed' };

export interface WatchOptions {
  /** Poll instead of inotify (network file systems). */
  poll: boolean;
  pollIntervalMs: number;
  debounceMs: number;
  stableMs: number;
}

const ROOT_CHECK_MS = 1000;
/** chokidar's own per-path `change` throttle (hard-coded in chokidar 4). */
const CHOKIDAR_THROTTLE_MS = 50;

function realpathOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

export const DEFAULT_WATCH: WatchOptions = { poll: false, pollIntervalMs: 1000, debounceMs: 5, stableMs: 10 };

/** A unit of refresh work: look at disk, check it held still, then serve what was seen. */
interface Work<T> {
  /** True when there is nothing to read: the files are as this process wrote them (a stat each). */
  settled?(): boolean;
  observe(): T;
  unchanged(seen: T): boolean;
  apply(seen: T): void;
}

export type WatcherStatus = 'starting' | 'watching' | 'failed' | 'stopped';

export class ConfigWatcher {
  status: WatcherStatus = 'starting';
  lastEventAt: Date | null = null;
  lastError: string | null = null;
  private thread: Worker | undefined;
  private readonly pending = new Map<string, NodeJS.Timeout>();
  /** Keys whose next look must read the file (it was written in place: see onEvent). */
  private readonly mustRead = new Set<string>();
  private idleWaiters: Array<() => void> = [];
  private burst = 0;
  private realRoot: string | null = null;
  private rootCheck: NodeJS.Timeout | undefined;
  private pollSettle: NodeJS.Timeout | undefined;

  constructor(
    private readonly sync: DiskSync,
    private readonly options: WatchOptions,
    private readonly onError: (err: Error) => void = () => {},
  ) {}

  /** Starts watching; resolves once chokidar has walked the folder and reports changes. */
  start(): Promise<void> {
    this.realRoot = realpathOrNull(this.sync.root);
    // git-sync (and `ln -sfn` deploys) swap a symlink on the way to the folder: inotify keeps
    // watching the old tree, so follow the link and re-watch when it points somewhere new.
    this.rootCheck = setInterval(() => this.checkRoot(), ROOT_CHECK_MS);
    this.rootCheck.unref();
    return this.watch().then(() => {
      if (!this.options.poll) return;
      // Polling takes each file's first stat as its baseline, asynchronously and after chokidar
      // says it is ready: a change landing before that stat is in the baseline, and never
      // reported. Once every baseline has surely been taken, look at what changed since applied
      // (a stat per file). Seen once in `make test` on a busy machine: an edit right after start went unseen.
      this.pollSettle = setTimeout(() => this.refreshChanged(), 4 * this.options.pollIntervalMs);
      this.pollSettle.unref();
    });
  }

  /** Starts chokidar in its own thread; resolves once it has walked the folder. */
  private watch(): Promise<void> {
    const thread = startModuleWorker('chokidar-thread', { root: this.sync.root, poll: this.options.poll, pollIntervalMs: this.options.pollIntervalMs });
    this.thread = thread;
    return new Promise((resolve) => {
      thread.on('message', (message: ThreadMessage) => {
        if (thread !== this.thread) return; // an old thread, replaced after a root swap
        if (message.type === 'events') {
          for (const [event, rel] of message.events) this.onEvent(event, rel);
        } else if (message.type === 'ready') {
          if (this.status === 'starting') this.status = 'watching';
          resolve();
        } else if (message.type === 'error') {
          this.lastError = message.message;
          this.onError(new Error(message.message));
        }
      });
      thread.once('error', (err) => {
        this.status = 'failed';
        this.lastError = err.message;
        this.onError(err);
        resolve();
      });
      thread.once('exit', () => {
        if (thread === this.thread && this.status !== 'stopped') {
          this.status = 'failed';
          resolve();
        }
      });
    });
  }

  /** Asks a chokidar thread to close its watches, then ends it. */
  private async stopThread(thread: Worker | undefined): Promise<void> {
    if (!thread) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2000);
      thread.on('message', (message: ThreadMessage) => {
        if (message.type === 'closed') {
          clearTimeout(timer);
          resolve();
        }
      });
      thread.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      thread.postMessage('close');
    });
    await thread.terminate();
  }

  private checkRoot(): void {
    const real = realpathOrNull(this.sync.root);
    if (real === this.realRoot || this.status === 'stopped') return;
    this.realRoot = real;
    const old = this.thread;
    void this.watch();
    void this.stopThread(old);
    this.refreshAll();
  }

  async close(): Promise<void> {
    clearInterval(this.rootCheck);
    clearTimeout(this.pollSettle);
    this.status = 'stopped';
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.mustRead.clear();
    this.releaseIdle();
    const thread = this.thread;
    this.thread = undefined;
    await this.stopThread(thread);
  }

  /** Resolves when no refresh is pending (every event seen so far has been applied). */
  whenIdle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Schedules a refresh of every network whose files changed since they were last applied: run
   * once the first load and chokidar's own walk are both done, it catches a change that landed
   * between the load reading a file and chokidar watching its folder.
   */
  refreshChanged(): void {
    const { ids } = this.sync.listTargets();
    for (const id of ids.values()) if (this.sync.changedSinceApplied(id)) this.scheduleId(id.id);
  }

  /** Schedules a refresh of everything on disk and in the index (a full reconcile). */
  refreshAll(): void {
    const { ids, foreign } = this.sync.listTargets();
    for (const id of ids.values()) this.scheduleId(id.id);
    for (const [rel, reason] of foreign) this.scheduleForeign(rel, reason);
  }

  private onEvent(event: string, rel: string): void {
    this.lastEventAt = new Date();
    // Every file or folder event counts toward a storm; `watched` is chokidar's own start of a watch.
    if (event !== 'watched') this.burst++;
    if (event === 'touch' || event === 'write') {
      // A name the folder's own watch reported (chokidar-thread.ts says why): a file written,
      // replaced or removed. chokidar's own events report foreign files.
      const kind = classifyPath(rel);
      if (kind.kind !== 'network') return;
      // Written in place: read it even if its stat is that of our own last write (a write of the
      // same size within the same clock tick would leave the stat as it was).
      if (event === 'write') this.mustRead.add(`id:${kind.id.id}`);
      this.scheduleId(kind.id.id);
      return;
    }
    if (event === 'watched') {
      // chokidar watches a new family folder now; files made before that sent no event.
      if (rel !== '' && !rel.includes('/')) this.refreshFamily(rel, true);
      return;
    }
    if (rel === '' || rel === '.') {
      // The config folder itself came or went: look at everything.
      this.refreshAll();
      return;
    }
    const depth = rel.split('/').length;
    if (event === 'addDir' || event === 'unlinkDir') {
      if (depth === 1) this.refreshFamily(rel);
      else this.scheduleForeign(rel, 'folders inside a family folder are not read; put a network in <family>/<name>.yaml');
      return;
    }
    const kind = classifyPath(rel);
    if (kind.kind === 'network') this.scheduleId(kind.id.id);
    else if (kind.kind === 'foreign') this.scheduleForeign(rel, kind.reason);
  }

  /**
   * A family folder appeared or vanished (a git checkout, a rename): refresh all it holds or held,
   * or with `onlyChanged` what differs from what was applied (a stat per file).
   */
  private refreshFamily(family: string, onlyChanged = false): void {
    const { ids, foreign } = this.sync.listTargets();
    for (const id of ids.values()) if (id.family === family && (!onlyChanged || this.sync.changedSinceApplied(id))) this.scheduleId(id.id);
    for (const [rel, reason] of foreign) if (rel.startsWith(`${family}/`)) this.scheduleForeign(rel, reason);
  }

  private scheduleId(id: string): void {
    const [family = '', name = ''] = id.split(':');
    const networkId = { id, family, name };
    this.schedule(`id:${id}`, {
      settled: () => this.sync.asWritten(networkId),
      observe: () => this.sync.observe(networkId),
      unchanged: (seen) => this.sync.unchanged(seen),
      apply: (seen) => this.sync.apply(seen),
    });
  }

  private scheduleForeign(rel: string, reason: string): void {
    const abs = this.sync.abs(rel);
    this.schedule(`path:${rel}`, {
      observe: () => stampOf(abs),
      unchanged: (seen) => stampOf(abs) === seen,
      apply: () => this.sync.refreshForeign(rel, reason),
    });
  }

  private schedule<T>(key: string, work: Work<T>): void {
    clearTimeout(this.pending.get(key));
    this.pending.set(key, setTimeout(() => this.look(key, work), this.options.debounceMs));
  }

  private look<T>(key: string, work: Work<T>): void {
    const settled = (): boolean => !this.mustRead.has(key) && work.settled?.() === true;
    if (settled()) {
      // The echo of our own PATCH: the index has it already. Still looked at once more later.
      this.trail(key, work, settled);
      return;
    }
    this.mustRead.delete(key);
    const seen = work.observe();
    this.pending.set(
      key,
      setTimeout(() => {
        if (!work.unchanged(seen)) {
          this.look(key, work); // it moved while we looked: look again
          return;
        }
        try {
          work.apply(seen);
        } catch (err) {
          this.onError(err as Error);
        }
        this.trail(key, work, () => work.unchanged(seen));
      }, this.options.stableMs),
    );
  }

  /**
   * chokidar 4 drops a path's `change` events for 50 ms after one it sent, with no catch-up event
   * (polling; with inotify the folders' own events come unthrottled). So look once more after
   * that window: a write that landed inside it is read then.
   */
  private trail<T>(key: string, work: Work<T>, still: () => boolean): void {
    this.pending.set(
      key,
      setTimeout(() => {
        if (!still()) {
          this.look(key, work);
          return;
        }
        this.pending.delete(key);
        if (this.pending.size === 0) this.settle();
      }, CHOKIDAR_THROTTLE_MS + 10),
    );
  }

  private settle(): void {
    // After a storm (a git checkout of hundreds of files), reconcile once with the whole folder so
    // the index ends equal to the disk even if the OS or chokidar dropped an event.
    if (this.burst >= 50) {
      this.burst = 0;
      this.refreshChanged(); // a stat per file; reads only what differs from what was applied
      if (this.pending.size > 0) return;
    }
    this.burst = 0;
    this.releaseIdle();
  }

  private releaseIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
