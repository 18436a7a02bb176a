/**
 * Keeps the index in step with the folder. chokidar says *that* something changed; what changed
 * is always read back from disk (refresh-plan.ts says what to read for each event). Here: chokidar's
 * thread started, followed to where the folder resolves, and what readiness and the metrics show of it.
 */
import type { Refresher } from '../index/refresher.js';
import { ChokidarWorker } from './chokidar-worker.js';
import { RefreshPlan } from './refresh-plan.js';

export interface WatchOptions {
  /** Poll instead of inotify (network file systems). */
  poll: boolean;
  pollIntervalMs: number;
  debounceMs: number;
  stableMs: number;
}

const ROOT_CHECK_MS = 1000;

export const DEFAULT_WATCH: WatchOptions = { poll: false, pollIntervalMs: 1000, debounceMs: 5, stableMs: 10 };

export type WatcherStatus = 'starting' | 'watching' | 'failed' | 'stopped';

export class ConfigWatcher {
  private status: WatcherStatus = 'starting';
  private lastEventAt: Date | null = null;
  private lastError: string | null = null;
  private chokidar: ChokidarWorker | undefined;
  private readonly plan: RefreshPlan;
  /** chokidar's events since start by name (add, change, unlink, addDir, unlinkDir): a closed list, for the metrics. */
  private readonly events = new Map<string, number>();
  /** Where chokidar watches (the folder's real path), or why it does not. */
  private watchedAs = '';
  private rootCheck: NodeJS.Timeout | undefined;
  private pollSettle: NodeJS.Timeout | undefined;

  constructor(
    private readonly refresher: Refresher,
    private readonly options: WatchOptions,
    private readonly onError: (err: Error) => void = () => {},
    /** True while git holds the work tree's index.lock (store-git.ts); never, outside a work tree. */
    gitRewriting: () => boolean = () => false,
  ) {
    this.plan = new RefreshPlan(refresher, options, onError, gitRewriting);
  }

  /** Starts watching; resolves once chokidar has walked the folder and reports changes. */
  start(): Promise<void> {
    // git-sync (and `ln -sfn` deploys) swap a symlink on the way to the folder: inotify keeps
    // watching the old tree, so follow the link and re-watch when it points somewhere new.
    this.rootCheck = setInterval(() => this.checkRoot(), ROOT_CHECK_MS);
    this.rootCheck.unref();
    return this.watch(this.where()).then(() => this.settleWhenPolling());
  }

  /** A new watch is up (a root link swapped, chokidar started afresh): a look by stat now, and when polling, again later. */
  private watchedAfresh(): void {
    this.plan.refreshChanged();
    this.settleWhenPolling();
  }

  /**
   * Polling takes each file's first stat as its baseline, asynchronously and after chokidar says it
   * is ready: a change landing before that stat is in the baseline, and never reported. Once every
   * baseline has surely been taken, look at what changed since applied (a stat per file). Seen in
   * `make test` on a busy machine: an edit right after start went unseen; and after chokidar was
   * started afresh (`rewatched`), an edit inside the new folder, one time in three.
   */
  private settleWhenPolling(): void {
    if (!this.options.poll || this.status === 'stopped') return;
    clearTimeout(this.pollSettle);
    this.pollSettle = setTimeout(() => this.refreshChanged(), 4 * this.options.pollIntervalMs);
    this.pollSettle.unref();
  }

  /**
   * What to watch: the folder's real path, the path as given while it is gone (chokidar sees it
   * come back), or nothing while git made it a link inside the clone (config-folder.ts), which
   * must not be followed out of the clone.
   */
  private where(): { watch: string | null; key: string } {
    const folder = this.refresher.folder.check();
    if (folder.ok) return { watch: folder.real, key: folder.real };
    return { watch: folder.kind === 'link' ? null : this.refresher.root, key: `(${folder.kind})` };
  }

  /** Starts chokidar (in its own thread) on the folder; resolves once it has walked it. */
  private watch(where: { watch: string | null; key: string }): Promise<void> {
    this.watchedAs = where.key;
    if (where.watch === null) {
      if (this.status === 'starting') this.status = 'watching'; // nothing to watch until git makes it a folder again
      return Promise.resolve();
    }
    const chokidar = new ChokidarWorker(
      where.watch,
      { poll: this.options.poll, pollIntervalMs: this.options.pollIntervalMs },
      (event, rel) => {
        if (chokidar === this.chokidar) this.onEvent(event, rel); // not an old one, replaced after a root swap
      },
      (err) => {
        this.lastError = err.message;
        this.onError(err);
      },
      (err) => {
        if (chokidar !== this.chokidar || this.status === 'stopped') return;
        this.status = 'failed';
        this.lastError = err.message;
        this.onError(err);
      },
    );
    this.chokidar = chokidar;
    return chokidar.ready.then(() => {
      if (this.status === 'starting') this.status = 'watching';
    });
  }

  private checkRoot(): void {
    const where = this.where();
    if (where.key === this.watchedAs || this.status === 'stopped') return;
    const old = this.chokidar;
    this.chokidar = undefined;
    // What changes while the new tree is walked has no event: looked for by a stat per file once it is watched.
    void this.watch(where).then(() => this.status !== 'stopped' && this.watchedAfresh());
    void old?.close();
    this.plan.refreshAll();
  }

  async close(): Promise<void> {
    clearInterval(this.rootCheck);
    clearTimeout(this.pollSettle);
    this.status = 'stopped';
    this.plan.clear();
    const chokidar = this.chokidar;
    this.chokidar = undefined;
    await chokidar?.close();
  }

  /** Resolves when no refresh is pending (every event seen so far has been applied). */
  whenIdle(): Promise<void> {
    return this.plan.whenIdle();
  }

  /** Looks by stat for what changed since applied (refresh-plan.ts): once the first load and chokidar's walk are done. */
  refreshChanged(): void {
    this.plan.refreshChanged();
  }

  /** What readiness shows of the watcher: its state, its last event and its last error. */
  state(): { status: WatcherStatus; lastEventAt: Date | null; lastError: string | null } {
    return { status: this.status, lastEventAt: this.lastEventAt, lastError: this.lastError };
  }

  /** How many events chokidar reported since start, by name (its five at 0 before the first). */
  eventCounts(): Record<string, number> {
    return { add: 0, change: 0, unlink: 0, addDir: 0, unlinkDir: 0, ...Object.fromEntries(this.events) };
  }

  /** How many networks' changes wait for git to finish rewriting the work tree. */
  waitingForGit(): number {
    return this.plan.waitingForGit();
  }

  private onEvent(event: string, rel: string): void {
    // chokidar was started afresh after an entry of the folder was replaced under its name (chokidar-events.ts):
    // what changed while it walked the folder again is found by a stat per file.
    if (event === 'rewatched') return this.watchedAfresh();
    this.lastEventAt = new Date();
    this.events.set(event, (this.events.get(event) ?? 0) + 1);
    this.plan.onEvent(event, rel);
  }
}
