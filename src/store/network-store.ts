/**
 * The store: the one object the HTTP layer talks to. It owns the index, the watcher that keeps it
 * in step with the folder, and the writer. It knows files, YAML, git and locks, and nothing of
 * HTTP: it returns data, and its errors carry data.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { NetcfgError } from '../errors.js';
import type { Actor, WriteNote } from './actor.js';
import { ConfigFolder } from './files/config-folder.js';
import { LOCK_DIR, requireNetworkId } from './files/layout.js';
import type { Commit, GitAuthor } from './git/work-tree.js';
import { StoreGit, type GitSyncSettings } from './store-git.js';
import { ChangeLog } from './index/change-log.js';
import { DiskSync } from './index/disk-sync.js';
import { firstLoad } from './index/first-load.js';
import { IndexCache } from './index/index-cache.js';
import { NetworkIndex, type IndexChange, type Page } from './index/network-index.js';
import type { NetworkRecord } from './network-record.js';
import { readinessOf, type Readiness } from './readiness.js';
import { RetryCounts, WriteOutcomes, type RetryReason } from './retries.js';
import { PatchChecks } from './write/patch-checks.js';
import { Proposer, type Proposal, type ProposeOptions } from './git/proposal.js';
import { loadSchemas } from './validation/schemas.js';
import type { NetworkVersion } from './git/network-versions.js';
import type { UrlCheck, UrlFinding } from './write/url-check.js';
import { OPEN_POLICY, type UrlPolicy } from './validation/url-rules.js';
import { ConfigWatcher, DEFAULT_WATCH, type WatchOptions } from './watch/watcher.js';
import { realDisk, type DiskSteps } from './write/disk-steps.js';
import { NetworkWriter } from './write/network-writer.js';
import { NetworkCreator } from './write/network-creator.js';
import { DEFAULT_LOCK, WriteLocks, type LockOptions } from './write/write-lock.js';
import type { LeaseSlot } from './files/lease-file.js';

export type { HealthStatus, Readiness } from './readiness.js';
export type { GitSyncSettings } from './store-git.js';
export type { LeaseRecord, LeaseSlot } from './files/lease-file.js';

export interface StoreOptions {
  root: string;
  policy?: UrlPolicy;
  watch?: Partial<WatchOptions>;
  lock?: Partial<LockOptions>;
  /** The disk the writer writes through (disk-steps.ts); tests wrap it to make a step fail. */
  fs?: DiskSteps;
  onError?: (err: Error) => void;
  /** GIT_COMMIT: commit each PATCH when the folder is in a git work tree. */
  gitCommit?: boolean;
  gitAuthor?: GitAuthor;
  /** INDEX_CACHE: a file to keep what was parsed, so a restart re-parses only changed files. */
  indexCache?: string;
  /** GIT_SYNC: follow the remote branch the clone's branch tracks, looking every `intervalMs`. */
  gitSync?: GitSyncSettings;
  /** RPC_PROBE_ON_PATCH: the URLs of a PATCH asked which chain they serve before the write. */
  urlCheck?: UrlCheck;
  /** The index to serve from (default: a new, empty one); a test may hand in one it fills itself. */
  index?: NetworkIndex;
}

/** A PATCH's outcome: the record written, and what its URLs answered that was not fine (RPC_PROBE_ON_PATCH). */
export type { UrlCheck, UrlFinding } from './write/url-check.js';
export type { Proposal, ProposeOptions } from './git/proposal.js';
export { parseProposalBranch, PROPOSAL_PREFIX } from './git/proposal-name.js';

export interface Updated {
  record: NetworkRecord;
  findings: UrlFinding[];
}

/** What a write's actor may do beyond writing (the HTTP layer says it from the token), and netcfg's own why. */
export interface WriteHow {
  /** It may see secrets' values, so it may write one out. */
  revealSecrets?: boolean;
  /** It may add a secret reference or change which variable one names (reveal_secrets or admin). */
  changeReferences?: boolean;
  note?: WriteNote;
}

/** What a writer may do with secrets, as the PATCH checks take it. */
function rightsOf(how: WriteHow): { reveal: boolean; changeReferences: boolean } {
  return { reveal: how.revealSecrets === true, changeReferences: how.changeReferences === true };
}

export class NetworkStore {
  readonly root: string;
  private readonly index: NetworkIndex;
  /** Recent changes, for clients resuming a change stream. */
  private readonly changes: ChangeLog;
  private readonly watcher: ConfigWatcher;
  private readonly folder: ConfigFolder;
  /** Disk -> index: what the folder holds, read back and served (disk-sync.ts). */
  private readonly disk: DiskSync;
  private readonly writer: NetworkWriter;
  /** create(): a new network's file, written as a PATCH is (write/network-creator.ts). */
  private readonly creator: NetworkCreator;
  private readonly policy: UrlPolicy;
  private loadedAt: Date | null = null;
  /** Set once the writer knows where a write goes (git opened, GIT_SYNC's clone reset to its remote). */
  private writesOpen = false;
  /** Set by close(): new writes are refused. */
  private closing = false;
  /** The work tree holding the folder, and with GIT_SYNC the clone following its remote: the writer's write strategy. */
  private readonly git: StoreGit;
  private readonly cache: IndexCache | null;
  /** What update() and proposeUpdate() check of a PATCH first (patch-checks.ts). */
  private readonly checks: PatchChecks;
  /** Why writes were made again or waited, counted (retries.ts). */
  private readonly retries = new RetryCounts();
  private readonly writes = new WriteOutcomes();
  /** GIT_SYNC's proposals: update()'s checks, then a commit pushed to a branch of its own (git/proposal.ts). */
  private readonly proposer: Proposer;

  constructor(options: StoreOptions) {
    this.root = path.resolve(options.root);
    this.index = options.index ?? new NetworkIndex();
    this.changes = new ChangeLog(this.index);
    this.policy = options.policy ?? OPEN_POLICY;
    const onError = options.onError ?? (() => {});
    loadSchemas(); // compile once, at start, so a broken schema fails fast
    this.folder = new ConfigFolder(this.root, options.gitSync !== undefined); // with GIT_SYNC the clone is netcfg's own: no link below its top is the operator's
    this.disk = new DiskSync(this.folder, this.index, this.policy);
    this.watcher = new ConfigWatcher(this.disk, { ...DEFAULT_WATCH, ...options.watch }, onError);
    const fs = options.fs ?? realDisk;
    const staleMs = options.lock?.staleMs ?? DEFAULT_LOCK.staleMs;
    const maxWaitMs = options.lock?.maxWaitMs ?? Math.max(DEFAULT_LOCK.maxWaitMs, staleMs * 2 + 2000); // a killed process's lock goes stale and is taken over within it
    const locks = new WriteLocks(() => path.join(this.folder.forWriting(), LOCK_DIR), fs, { staleMs, maxWaitMs });
    const author = options.gitAuthor ?? { name: 'netcfg', email: 'netcfg@localhost' };
    this.git = new StoreGit({
      root: this.root,
      cloneTop: this.folder.cloneTop,
      author,
      gitCommit: options.gitCommit ?? false,
      gitSync: options.gitSync,
      locks,
      retries: this.retries,
    });
    const parts = {
      netcfgAuthor: author,
      folder: this.folder,
      index: this.index,
      served: this.disk,
      policy: this.policy,
      fs,
      locks,
      strategy: this.git,
      retries: this.retries,
    };
    this.writer = new NetworkWriter(parts);
    this.cache = options.indexCache ? new IndexCache(options.indexCache, this.policy, onError) : null;
    const state = () => ({
      closing: this.closing,
      writesOpen: this.writesOpen,
      loaded: this.loaded,
      git: this.git.follower?.refusal() ?? null,
    });
    this.creator = new NetworkCreator(parts, state);
    this.checks = new PatchChecks({ index: this.index, policy: this.policy, urlCheck: options.urlCheck, state });
    const served = (id: string) => this.get(id);
    this.proposer = new Proposer({
      git: this.git,
      watcher: this.watcher,
      checks: this.checks,
      served,
      folder: this.folder,
      policy: this.policy,
      author,
    });
  }

  /** Loads every file, then watches; a change between a file's load and its watch is found by a stat once chokidar is ready. */
  async start(): Promise<void> {
    await Promise.all([
      firstLoad(this.folder, this.disk, this.index, this.cache?.read() ?? null),
      this.git.open().then(() => (this.writesOpen = true)),
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
    this.closing = true;
    const grace = new AbortController();
    await Promise.race([
      this.writer.settled(),
      delay(graceMs, undefined, { signal: grace.signal }).catch(() => undefined),
    ]);
    grace.abort();
    await this.git.stop();
    await this.writer.settled();
    await this.watcher.close();
    if (this.loaded) await this.saveCache();
  }

  writesSettled(): Promise<void> {
    return this.writer.settled();
  }

  get loaded(): boolean {
    return this.loadedAt !== null;
  }

  /** A network by id; INVALID_ID for a malformed id, NETWORK_NOT_FOUND for an unknown one. */
  get(id: string): NetworkRecord {
    const record = this.index.get(requireNetworkId(id).id);
    if (!record)
      throw new NetcfgError('NETWORK_NOT_FOUND', `Network ${id} was not found; GET /api/v1/networks lists the ids.`);
    return record;
  }

  /** A page of networks in id order (of one family, of those `keep` takes, when given), with the total and the revision it was read at. */
  page(offset: number, limit: number, family?: string, keep?: (id: string) => boolean): Page {
    return this.index.page(offset, limit, family, keep);
  }

  /** Every id served (in no particular order). */
  ids(): string[] {
    return [...this.index.ids()];
  }

  /** The index revision: one more at every change of what is served. */
  revision(): number {
    return this.index.revision;
  }

  /** The changes after `revision`, oldest first; null when they are no longer kept (list again). */
  changesSince(revision: number): IndexChange[] | null {
    return this.changes.since(revision);
  }

  /** Hears every change of what is served, as it happens (the change stream, the log); returns the way to stop. */
  subscribe(listener: (change: IndexChange) => void): () => void {
    return this.index.onChange(listener);
  }

  /** Resolves once every change the watcher has seen so far is served. */
  whenIdle(): Promise<void> {
    return this.watcher.whenIdle();
  }

  /** Pulls started so far with GIT_SYNC (by the interval or a webhook); null when it is off. */
  get pullsStarted(): number | null {
    return this.git.follower?.pulls ?? null;
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
    return this.writes.track(
      (async () => {
        const { networkId, changes } = this.checks.checked(id, body, rightsOf(how));
        const findings = await this.checks.urlFindings(networkId, changes, ifMatch);
        return {
          record: await this.writer.update({ id: networkId, changes, ifMatch, actor, note: how.note }),
          findings,
        };
      })(),
    );
  }

  /** A new network `id` holding `fields` under `comment`, written, served and committed as `actor`; NETWORK_EXISTS if it is there. Counted. */
  create(
    id: string,
    fields: Record<string, unknown>,
    comment: string[],
    actor: Actor,
    note?: WriteNote,
  ): Promise<NetworkRecord> {
    return this.writes.track(
      (async () => this.creator.create({ id: requireNetworkId(id), fields, comment, actor, note }))(),
    );
  }

  /** update()'s change, checked alike, proposed (GIT_SYNC): pushed to the actor's branch for the network, not written (git/proposal.ts). */
  proposeUpdate(
    id: string,
    body: unknown,
    ifMatch: string | undefined,
    actor: Actor,
    how: ProposeOptions = {},
  ): Promise<Proposal> {
    return this.proposer.propose(id, body, ifMatch, actor, how);
  }

  /** The tracked branch's name on the remote (`main`), which proposals go into (GIT_SYNC; NOT_IMPLEMENTED without it). */
  proposalBase(): string {
    return this.git.requireProposals().tracked;
  }

  /** Takes a proposal back: its branch deleted on the remote while it is at `commit` (the one pushed), left if someone moved it since. */
  withdrawProposal(branch: string, commit: string): Promise<void> {
    return this.git.requireProposals().deleteBranch(branch, commit);
  }

  /** The commits of a network's file, newest first (the folder must be in a git work tree). */
  history(id: string, skip: number, limit: number): Promise<{ commits: Commit[]; total: number }> {
    return this.git.history(requireNetworkId(this.get(id).id), skip, limit);
  }

  /** The network as of commit `sha` and just before it (the folder must be in a git work tree). */
  versionAt(id: string, sha: string): Promise<NetworkVersion> {
    return this.git.versionAt(id, sha, this.policy);
  }

  /** How often each retry reason of the write path happened since start (retries.ts). */
  retryCounts(): Record<RetryReason, number> {
    return this.retries.snapshot();
  }

  /** What happened since start, counted: writes by outcome, the watcher's events by name, GIT_SYNC's pulls and pushes (null without it). */
  counts() {
    return {
      writes: this.writes.snapshot(),
      watcherEvents: this.watcher.eventCounts(),
      git: this.git.follower?.counts() ?? null,
    };
  }

  /** The slot replicas elect the relayer sync's speaker in: with GIT_SYNC a ref of the remote, else a file beside the write locks. */
  relayerLease(): LeaseSlot {
    return this.git.leaseSlot(() => path.join(this.folder.forWriting(), LOCK_DIR));
  }

  readiness(): Readiness {
    const { rootProblem, warning: folderWarning } = this.disk.folderReport();
    const watcher = {
      status: this.watcher.status,
      lastEventAt: this.watcher.lastEventAt,
      lastError: this.watcher.lastError,
    };
    return readinessOf({
      loadedAt: this.loadedAt,
      rootProblem,
      folderWarning,
      networks: this.index.size,
      invalid: this.index.invalidFiles(),
      watcher,
      writeFailure: this.writer.lastFailure,
      ...this.git.report(),
    });
  }

  private saveCache(): Promise<void> {
    return this.cache?.save(this.index.revision, () => this.disk.servedFiles()) ?? Promise.resolve();
  }
}
