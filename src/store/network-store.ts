/**
 * The store: the one object the HTTP layer talks to. It owns the index, the watcher that keeps it
 * in step with the folder, and the writer (built and wired in store-parts.ts). It knows files,
 * YAML, git and locks, and nothing of HTTP: it returns data, and its errors carry data.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Actor, WriteNote } from './actor.js';
import type { ConfigFolder } from './files/config-folder.js';
import { LOCK_DIR, requireNetworkId } from './files/layout.js';
import type { LeaseSlot } from './files/lease-file.js';
import type { Commit } from './git/work-tree.js';
import type { NetworkVersion } from './history/network-versions.js';
import { firstLoad } from './index/first-load.js';
import type { IndexCache } from './index/index-cache.js';
import { NetworkIndex } from './index/network-index.js';
import type { Refresher } from './index/refresher.js';
import type { NetworkRecord } from './network-record.js';
import type { Proposal, ProposeOptions } from './proposals/proposal.js';
import { readinessOf, type Readiness } from './readiness.js';
import { RetryCounts, type RetryReason } from './retries.js';
import type { StoreGit } from './store-git.js';
import type { StoreOptions, Updated, WriteHow } from './store-options.js';
import { storeParts } from './store-parts.js';
import { StoreReads } from './store-reads.js';
import type { StoreWrites } from './store-writes.js';
import type { UrlPolicy } from './validation/url-rules.js';
import type { ConfigWatcher } from './watch/watcher.js';
import type { WriteLocks } from './write/write-lock.js';

export type { HealthStatus, Readiness } from './readiness.js';
export type { GitSyncSettings } from './store-git.js';
export type { LeaseClaim, LeaseSlot } from './files/lease-file.js';
export type { UrlCheck, UrlFinding } from './write/url-check.js';
export type { Proposal, ProposeOptions } from './proposals/proposal.js';
export { parseProposalBranch, PROPOSAL_PREFIX } from './proposals/proposal-name.js';
export type { StoreOptions, Updated, WriteHow } from './store-options.js';

export class NetworkStore extends StoreReads {
  readonly root: string;
  private readonly watcher: ConfigWatcher;
  private readonly folder: ConfigFolder;
  private readonly refresher: Refresher;
  private readonly writes: StoreWrites;
  private readonly locks: WriteLocks;
  private readonly policy: UrlPolicy;
  private readonly git: StoreGit;
  private readonly cache: IndexCache | null;
  private loadedAt: Date | null = null;
  /** Why writes were made again or waited, counted (retries.ts). */
  private readonly retries = new RetryCounts();

  constructor(options: StoreOptions) {
    super(options.index ?? new NetworkIndex());
    this.root = path.resolve(options.root);
    const parts = storeParts(this.root, options, {
      index: this.index,
      retries: this.retries,
      loaded: () => this.loaded,
      served: (id) => this.get(id),
    });
    ({
      watcher: this.watcher,
      folder: this.folder,
      refresher: this.refresher,
      writes: this.writes,
      locks: this.locks,
      policy: this.policy,
      git: this.git,
      cache: this.cache,
    } = parts);
  }

  /** Loads every file, then watches; a change between a file's load and its watch is found by a stat once chokidar is ready. */
  async start(): Promise<void> {
    await Promise.all([
      firstLoad(this.folder, this.refresher, this.index, this.cache?.read() ?? null),
      this.git.open().then((strategy) => this.writes.open(strategy)),
    ]);
    // Ready once git is open too: a PATCH answered before that would be neither committed nor pushed.
    this.loadedAt = new Date();
    await this.watcher.start();
    this.watcher.refreshChanged();
    void this.saveCache();
    await this.git.follow();
  }

  /** Stops; writes still waiting on a silent remote after `graceMs` hear 503 and their git is killed. */
  async close(graceMs = 5000): Promise<void> {
    this.writes.close();
    const grace = new AbortController();
    await Promise.race([
      this.locks.settled(),
      delay(graceMs, undefined, { signal: grace.signal }).catch(() => undefined),
    ]);
    grace.abort();
    await this.git.close();
    await this.locks.settled();
    await this.watcher.close();
    if (this.loaded) await this.saveCache();
  }

  writesSettled(): Promise<void> {
    return this.locks.settled();
  }

  get loaded(): boolean {
    return this.loadedAt !== null;
  }

  /** Resolves once every change the watcher has seen so far is served. */
  whenIdle(): Promise<void> {
    return this.watcher.whenIdle();
  }

  /** Pulls started so far with GIT_SYNC (by the interval or a webhook); null when it is off. */
  get pullsStarted(): number | null {
    return this.git.gitSync?.pulls ?? null;
  }

  /** Starts a pull from the remote now (a verified webhook); false when GIT_SYNC is off. */
  pullNow(): boolean {
    return this.git.pullNow();
  }

  /** With GIT_SYNC, pulls now; resolves once the pull is done and every file it moved is served. */
  async caughtUp(): Promise<void> {
    await this.git.pull();
    // chokidar hears the files a pull moved only some time after it ends: a stat of each finds them now,
    // so a caller (the relayer sync, before it compares) never reads what was served before the pull.
    this.watcher.refreshChanged();
    await this.watcher.whenIdle();
  }

  /**
   * Validates a PATCH body and writes it as `actor` (NetworkWriter writes; `note`: netcfg's own why), what it sends back of a
   * secret turned into its reference first (`revealSecrets`: it may write a value out; `changeReferences`: it may add a
   * reference or change which variable one names, else it may only keep or drop those the network has). With a URL check, the URLs are asked first
   * (after the 404 and If-Match checks against the version served): in `reject` mode one that serves another chain refuses it. Counted.
   */
  update(id: string, body: unknown, ifMatch: string | undefined, actor: Actor, how: WriteHow = {}): Promise<Updated> {
    return this.writes.update(id, body, ifMatch, actor, how);
  }

  /** A new network `id` holding `fields` under `comment`, written, served and committed as `actor`; NETWORK_EXISTS if it is there. Counted. */
  create(
    id: string,
    fields: Record<string, unknown>,
    comment: string[],
    actor: Actor,
    note?: WriteNote,
  ): Promise<NetworkRecord> {
    return this.writes.create(id, fields, comment, actor, note);
  }

  /** update()'s change, checked alike, proposed (GIT_SYNC): pushed to the actor's branch for the network, not written (proposals/proposal.ts). */
  proposeUpdate(
    id: string,
    body: unknown,
    ifMatch: string | undefined,
    actor: Actor,
    how: ProposeOptions = {},
  ): Promise<Proposal> {
    return this.writes.propose(id, body, ifMatch, actor, how);
  }

  /** create()'s new network proposed (GIT_SYNC): its file committed on the actor's branch for it, not written (proposals/proposal.ts). */
  async proposeCreate(
    id: string,
    fields: Record<string, unknown>,
    comment: string[],
    actor: Actor,
    note?: WriteNote,
  ): Promise<Proposal> {
    return this.writes.proposeCreate(id, fields, comment, actor, note);
  }

  /** The tracked branch's name on the remote (`main`), which proposals go into (GIT_SYNC; NOT_IMPLEMENTED without it). */
  proposalBase(): string {
    return this.git.requireProposals().tracked;
  }

  /** Takes a proposal back: its branch deleted on the remote while it is at `commit` (the one pushed), left if someone moved it since. */
  withdrawProposal(branch: string, commit: string): Promise<void> {
    return this.git.requireProposals().deleteBranch(branch, commit);
  }

  /** The commits of a network's file, newest first, with trailers `keys` by key (the folder must be in a git work tree). */
  history(
    id: string,
    skip: number,
    limit: number,
    keys: readonly string[] = [],
  ): Promise<{ commits: Commit[]; total: number }> {
    return this.git.history(requireNetworkId(this.get(id).id), skip, limit, keys);
  }

  /** The network as of commit `sha` and just before it (the folder must be in a git work tree). */
  versionAt(id: string, sha: string): Promise<NetworkVersion> {
    return this.git.versionAt(id, sha, this.policy);
  }

  /** How often each retry reason of the write path happened since start (retries.ts). */
  retryCounts(): Record<RetryReason, number> {
    return this.retries.snapshot();
  }

  /**
   * What happened since start, counted: writes by outcome, the watcher's events by name, GIT_SYNC's pulls and pushes
   * (null without it); and the networks whose change waits now for git to finish rewriting the work tree.
   */
  counts() {
    return {
      writes: this.writes.counts(),
      watcherEvents: this.watcher.eventCounts(),
      watcherWaitingForGit: this.watcher.waitingForGit(),
      git: this.git.gitSync?.counts() ?? null,
    };
  }

  /** The slot replicas elect the relayer sync's speaker in: with GIT_SYNC a ref of the remote, else a file beside the write locks. */
  relayerLease(): LeaseSlot {
    return this.git.leaseSlot(() => path.join(this.folder.forWriting(), LOCK_DIR));
  }

  readiness(): Readiness {
    const { rootProblem, warning: folderWarning } = this.refresher.folderReport();
    const watcher = this.watcher.state();
    return readinessOf({
      loadedAt: this.loadedAt,
      rootProblem,
      folderWarning,
      networks: this.index.size,
      invalid: this.index.invalidFiles(),
      watcher,
      writeFailure: this.writes.failure(),
      ...this.git.report(),
    });
  }

  private saveCache(): Promise<void> {
    return this.cache?.save(this.index.revision, () => this.refresher.servedFiles()) ?? Promise.resolve();
  }
}
