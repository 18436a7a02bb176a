/**
 * What to read back from disk for each thing chokidar reports (watcher.ts): one network id, one foreign path, a
 * family's networks, or the whole folder by stat. Each is one unit of work in the refresh queue (refresh-queue.ts:
 * a debounce per key, and a check that the file held still before its bytes are served).
 */
import { NESTED_FOLDER, classifyPath, parseNetworkId, type NetworkId } from '../files/layout.js';
import { stampOf } from '../files/folder-listing.js';
import type { Refresher } from '../index/refresher.js';
import { GitHold } from './git-hold.js';
import { RefreshQueue, type Work } from './refresh-queue.js';

/**
 * When a family folder appears, chokidar lists it and only then watches it: a file made in
 * between sends no event. So the family is looked at again (a stat per file) at these delays,
 * by when chokidar watches it.
 */
const NEW_FOLDER_RECHECKS_MS = [100, 1000];

const EVERY = (): boolean => true;

/** Events in a row that make a storm (a git checkout of hundreds of files), reconciled by stat once it settles. */
const STORM_EVENTS = 50;

export class RefreshPlan {
  private readonly queue: RefreshQueue;
  /** Networks whose change waits for git to finish rewriting the work tree (git-hold.ts). */
  private readonly gitHold: GitHold;
  private burst = 0;

  constructor(
    private readonly refresher: Refresher,
    private readonly timing: { debounceMs: number; stableMs: number },
    onError: (err: Error) => void,
    /** True while git holds the work tree's index.lock (store-git.ts); never, outside a work tree. */
    gitRewriting: () => boolean,
  ) {
    this.gitHold = new GitHold(gitRewriting, Date.now, () => this.later('git-done', 0, () => this.refreshChanged()));
    this.queue = new RefreshQueue(timing.stableMs, onError, () => this.settle());
  }

  /** chokidar reported `event` at `rel` (relative to the folder; '' for the folder itself). */
  onEvent(event: string, rel: string): void {
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
        for (const ms of NEW_FOLDER_RECHECKS_MS)
          this.later(`recheck:${ms}:${rel}`, ms, () => this.refreshFamily(rel, true));
      return;
    }
    const kind = classifyPath(rel);
    if (kind.kind === 'network') this.scheduleId(kind.id.id);
    else if (kind.kind === 'foreign') this.scheduleForeign(rel, kind.reason);
  }

  /**
   * Schedules a refresh of every network whose files changed since they were last applied (or that readiness
   * names), and of every path that is not a network: after the first load and chokidar's own walk, after a new
   * watch, after a storm, once git is done; it catches a change whose event never came.
   */
  refreshChanged(): void {
    // Foreign paths are few, and not stamped when applied: looked at again each time (a family folder linked out).
    this.scheduleListed((id) => this.refresher.changedSinceApplied(id), EVERY);
  }

  /** Schedules a refresh of everything on disk and in the index (a full reconcile). */
  refreshAll(): void {
    this.scheduleListed(EVERY, EVERY);
  }

  /** Resolves when no refresh is pending (every event seen so far has been applied). */
  whenIdle(): Promise<void> {
    return this.queue.whenIdle();
  }

  /** How many networks' changes wait for git to finish rewriting the work tree. */
  waitingForGit(): number {
    return this.gitHold.size;
  }

  /** Drops every pending refresh (the watcher is closing). */
  clear(): void {
    this.queue.clear();
  }

  /** `look` (a listing and a stat per file, scheduling what it finds) as one unit of work, `delayMs` from now. */
  private later(key: string, delayMs: number, look: () => void): void {
    this.schedule(key, { observe: () => null, unchanged: () => true, apply: look }, delayMs);
  }

  /**
   * A family folder appeared or vanished (a git checkout, a rename): refresh all it holds or held,
   * or with `onlyChanged` what differs from what was applied (a stat per file).
   */
  private refreshFamily(family: string, onlyChanged = false): void {
    this.scheduleListed(
      (id) => id.family === family && (!onlyChanged || this.refresher.changedSinceApplied(id)),
      (rel) => rel === family || rel.startsWith(`${family}/`),
    );
  }

  /** Every network and foreign path on disk or in the index (refresher.listEntries) that passes its test, scheduled. */
  private scheduleListed(wantId: (id: NetworkId) => boolean, wantPath: (rel: string) => boolean): void {
    const { ids, foreign } = this.refresher.listEntries();
    for (const id of ids.values()) if (wantId(id)) this.scheduleId(id.id);
    for (const [rel, reason] of foreign) if (wantPath(rel)) this.scheduleForeign(rel, reason);
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

  private scheduleForeign(rel: string, reason: string): void {
    const abs = this.refresher.abs(rel);
    this.schedule(`path:${rel}`, {
      observe: () => stampOf(abs),
      unchanged: (seen) => stampOf(abs) === seen,
      apply: () => this.refresher.refreshForeign(rel, reason),
    });
  }

  private schedule<T>(key: string, work: Work<T>, delayMs = this.timing.debounceMs): void {
    this.queue.schedule(key, work, delayMs);
  }

  /**
   * After a storm (a git checkout of hundreds of files), reconcile once with the whole folder so
   * the index ends equal to the disk even if the OS or chokidar dropped an event. True when that
   * found more to do.
   */
  private settle(): boolean {
    const storm = this.burst >= STORM_EVENTS;
    this.burst = 0;
    if (!storm) return false;
    this.refreshChanged(); // a stat per file; reads only what differs from what was applied
    return this.queue.size > 0;
  }
}
