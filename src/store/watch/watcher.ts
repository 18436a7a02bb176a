/**
 * Keeps the index in step with the folder. chokidar says *that* something changed; what changed
 * is always read back from disk, one network id (or one foreign path) at a time, through the
 * refresh queue (refresh-queue.ts: a debounce per id, and a check that the file held still before
 * its bytes are served).
 */
import { NESTED_FOLDER, classifyPath, parseNetworkId } from '../files/layout.js';
import { stampOf } from '../files/folder-listing.js';
import type { Refresher } from '../index/refresher.js';
import { ChokidarWorker } from './chokidar-worker.js';
import { GitHold } from './git-hold.js';
import { RefreshQueue, type Work } from './refresh-queue.js';

export interface WatchOptions {
  /** Poll instead of inotify (network file systems). */
  poll: boolean;
  pollIntervalMs: number;
  debounceMs: number;
  stableMs: number;
}

const ROOT_CHECK_MS = 1000;
/**
 * When a family folder appears, chokidar lists it and only then watches it: a file made in
 * between sends no event. So the family is looked at again (a stat per file) at these delays,
 * by when chokidar watches it.
 */
const NEW_FOLDER_RECHECKS_MS = [100, 1000];

export const DEFAULT_WATCH: WatchOptions = { poll: false, pollIntervalMs: 1000, debounceMs: 5, stableMs: 10 };

export type WatcherStatus = 'starting' | 'watching' | 'failed' | 'stopped';

export class ConfigWatcher {
  private status: WatcherStatus = 'starting';
  private lastEventAt: Date | null = null;
  private lastError: string | null = null;
  private chokidar: ChokidarWorker | undefined;
  private readonly queue: RefreshQueue;
  private burst = 0;
  /** chokidar's events since start by name (add, change, unlink, addDir, unlinkDir): a closed list, for the metrics. */
  private readonly events = new Map<string, number>();
  /** Where chokidar watches (the folder's real path), or why it does not. */
  private watchedAs = '';
  private rootCheck: NodeJS.Timeout | undefined;
  private pollSettle: NodeJS.Timeout | undefined;
  /** Networks whose change waits for git to finish rewriting the work tree (git-hold.ts). */
  private readonly gitHold: GitHold;

  constructor(
    private readonly refresher: Refresher,
    private readonly options: WatchOptions,
    private readonly onError: (err: Error) => void = () => {},
    /** True while git holds the work tree's index.lock (store-git.ts); never, outside a work tree. */
    gitRewriting: () => boolean = () => false,
  ) {
    this.gitHold = new GitHold(gitRewriting, Date.now, () => this.schedule('git-done', this.changedSince(), 0));
    this.queue = new RefreshQueue(options.stableMs, onError, () => this.settle());
  }

  /** Starts watching; resolves once chokidar has walked the folder and reports changes. */
  start(): Promise<void> {
    // git-sync (and `ln -sfn` deploys) swap a symlink on the way to the folder: inotify keeps
    // watching the old tree, so follow the link and re-watch when it points somewhere new.
    this.rootCheck = setInterval(() => this.checkRoot(), ROOT_CHECK_MS);
    this.rootCheck.unref();
    return this.watch(this.where()).then(() => {
      if (!this.options.poll) return;
      // Polling takes each file's first stat as its baseline, asynchronously and after chokidar
      // says it is ready: a change landing before that stat is in the baseline, and never
      // reported. Once every baseline has surely been taken, look at what changed since applied
      // (a stat per file). Seen once in `make test` on a busy machine: an edit right after start went unseen.
      this.pollSettle = setTimeout(() => this.refreshChanged(), 4 * this.options.pollIntervalMs);
      this.pollSettle.unref();
    });
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
    void this.watch(where).then(() => this.status !== 'stopped' && this.refreshChanged());
    void old?.close();
    this.refreshAll();
  }

  async close(): Promise<void> {
    clearInterval(this.rootCheck);
    clearTimeout(this.pollSettle);
    this.status = 'stopped';
    this.queue.clear();
    const chokidar = this.chokidar;
    this.chokidar = undefined;
    await chokidar?.close();
  }

  /** Resolves when no refresh is pending (every event seen so far has been applied). */
  whenIdle(): Promise<void> {
    return this.queue.whenIdle();
  }

  /**
   * Schedules a refresh of every network whose files changed since they were last applied, and of
   * every path that is not a network: run once the first load and chokidar's own walk are both
   * done, it catches a change that landed between the load reading a file and chokidar watching its folder.
   */
  refreshChanged(): void {
    const { ids, foreign } = this.refresher.listEntries();
    for (const id of ids.values()) if (this.refresher.changedSinceApplied(id)) this.scheduleId(id.id);
    // Few, and not stamped when applied: looked at again each time (a family folder linked out during the walk).
    for (const [rel, reason] of foreign) this.scheduleForeign(rel, reason);
  }

  /** Schedules a refresh of everything on disk and in the index (a full reconcile). */
  refreshAll(): void {
    const { ids, foreign } = this.refresher.listEntries();
    for (const id of ids.values()) this.scheduleId(id.id);
    for (const [rel, reason] of foreign) this.scheduleForeign(rel, reason);
  }

  /** How many events chokidar reported since start, by name (its five at 0 before the first). */
  /** What readiness shows of the watcher: its state, its last event and its last error. */
  state(): { status: WatcherStatus; lastEventAt: Date | null; lastError: string | null } {
    return { status: this.status, lastEventAt: this.lastEventAt, lastError: this.lastError };
  }

  eventCounts(): Record<string, number> {
    return { add: 0, change: 0, unlink: 0, addDir: 0, unlinkDir: 0, ...Object.fromEntries(this.events) };
  }

  private onEvent(event: string, rel: string): void {
    // chokidar was started afresh after an entry of the folder was replaced under its name (chokidar-events.ts):
    // what changed while it walked the folder again is found by a stat per file.
    if (event === 'rewatched') return this.refreshChanged();
    this.lastEventAt = new Date();
    this.events.set(event, (this.events.get(event) ?? 0) + 1);
    this.burst++;
    if (rel === '' || rel === '.') {
      // The config folder itself came or went: look at everything.
      this.refreshAll();
      return;
    }
    const nested = rel.includes('/');
    if (event === 'addDir' || event === 'unlinkDir') {
      if (nested) this.scheduleForeign(rel, NESTED_FOLDER);
      else this.refreshFamily(rel);
      if (!nested && event === 'addDir')
        for (const ms of NEW_FOLDER_RECHECKS_MS) this.schedule(`recheck:${ms}:${rel}`, this.familyRecheck(rel), ms);
      return;
    }
    const kind = classifyPath(rel);
    if (kind.kind === 'network') this.scheduleId(kind.id.id);
    else if (kind.kind === 'foreign') this.scheduleForeign(rel, kind.reason);
  }

  /** A look at what changed anywhere since it was applied (a stat per file), as one unit of work. */
  private changedSince(): Work<null> {
    return { observe: () => null, unchanged: () => true, apply: () => this.refreshChanged() };
  }

  /** A look at what changed in a family since it was applied (a stat per file), as one unit of work. */
  private familyRecheck(family: string): Work<null> {
    return { observe: () => null, unchanged: () => true, apply: () => this.refreshFamily(family, true) };
  }

  /**
   * A family folder appeared or vanished (a git checkout, a rename): refresh all it holds or held,
   * or with `onlyChanged` what differs from what was applied (a stat per file).
   */
  private refreshFamily(family: string, onlyChanged = false): void {
    const { ids, foreign } = this.refresher.listEntries();
    for (const id of ids.values())
      if (id.family === family && (!onlyChanged || this.refresher.changedSinceApplied(id))) this.scheduleId(id.id);
    for (const [rel, reason] of foreign)
      if (rel === family || rel.startsWith(`${family}/`)) this.scheduleForeign(rel, reason);
  }

  private scheduleId(id: string): void {
    const networkId = parseNetworkId(id);
    if (!networkId) return;
    this.schedule(`id:${id}`, {
      observe: () => this.refresher.observe(networkId),
      unchanged: (seen) => this.refresher.unchanged(seen),
      apply: (seen) => this.refresher.apply(seen),
      held: () => this.gitHold.holds(id),
    });
  }

  /** How many networks' changes wait for git to finish rewriting the work tree. */
  waitingForGit(): number {
    return this.gitHold.size;
  }

  private scheduleForeign(rel: string, reason: string): void {
    const abs = this.refresher.abs(rel);
    this.schedule(`path:${rel}`, {
      observe: () => stampOf(abs),
      unchanged: (seen) => stampOf(abs) === seen,
      apply: () => this.refresher.refreshForeign(rel, reason),
    });
  }

  private schedule<T>(key: string, work: Work<T>, delayMs = this.options.debounceMs): void {
    this.queue.schedule(key, work, delayMs);
  }

  /**
   * After a storm (a git checkout of hundreds of files), reconcile once with the whole folder so
   * the index ends equal to the disk even if the OS or chokidar dropped an event. True when that
   * found more to do.
   */
  private settle(): boolean {
    const storm = this.burst >= 50;
    this.burst = 0;
    if (!storm) return false;
    this.refreshChanged(); // a stat per file; reads only what differs from what was applied
    return this.queue.size > 0;
  }
}
