/**
 * The store: the one object the HTTP layer talks to. It owns the index, the watcher that keeps it
 * in step with the folder, and the writer. It knows files, YAML and locks, and nothing of HTTP.
 */
import path from 'node:path';
import { NetcfgError } from '../errors.js';
import { ChangeLog } from './change-log.js';
import { DiskSync } from './disk-sync.js';
import { GitJournal, type Commit, type GitAuthor } from './git-journal.js';
import { IndexCache } from './index-cache.js';
import { DEFAULT_LOCK, FileLocks, type LockOptions } from './file-lock.js';
import type { FsSeam } from './fs-seam.js';
import { EXTENSIONS, parseNetworkId, relativePathOf, type NetworkId } from './network-id.js';
import type { NetworkRecord } from './network-record.js';
import { NetworkIndex, type IndexChange, type InvalidFile, type Page } from './network-index.js';
import { NetworkWriter } from './network-writer.js';
import { loadInParallel, workersFor } from './parallel-load.js';
import { loadSchemas } from './schemas.js';
import { sweepTempFiles } from './temp-files.js';
import { ThreadedFs } from './threaded-fs.js';
import { OPEN_POLICY, checkRpcUrls, type UrlPolicy } from './url-rules.js';
import { ConfigWatcher, DEFAULT_WATCH, type WatchOptions } from './watcher.js';

export interface StoreOptions {
  root: string;
  policy?: UrlPolicy;
  watch?: Partial<WatchOptions>;
  lock?: Partial<LockOptions>;
  /** The file-system seam for writes; tests swap it to make the disk fail. */
  fs?: FsSeam;
  onError?: (err: Error) => void;
  /** GIT_COMMIT: commit each PATCH when the folder is in a git work tree. */
  gitCommit?: boolean;
  gitAuthor?: GitAuthor;
  /** INDEX_CACHE: a file to keep what was parsed, so a restart re-parses only changed files. */
  indexCache?: string;
}

export type HealthStatus = 'healthy' | 'degraded' | 'unhealthy';

export interface Readiness {
  ready: boolean;
  status: HealthStatus;
  reason?: string;
  components: {
    index: { status: HealthStatus; networks: number; invalid_files: InvalidFile[]; loaded_at: string | null };
    watcher: { status: HealthStatus; state: string; last_event_at: string | null; error?: string };
    storage: { status: HealthStatus; error?: string; failed_at?: string };
    git?: { status: HealthStatus; commit_on_write: boolean; pending_commits: number; writes_waiting_for_git: number; error?: string };
  };
  timestamp: string;
}

export class NetworkStore {
  readonly root: string;
  readonly index = new NetworkIndex();
  /** Recent changes, for clients resuming a change stream. */
  readonly changes = new ChangeLog(this.index);
  readonly watcher: ConfigWatcher;
  private readonly sync: DiskSync;
  private readonly writer: NetworkWriter;
  private readonly policy: UrlPolicy;
  private loadedAt: Date | null = null;
  private journal: GitJournal | null = null;
  private readonly cache: IndexCache | null;
  private readonly gitCommit: boolean;
  private readonly gitAuthor: GitAuthor;
  /** Where writes go unless a test passes its own seam (see threaded-fs.ts). */
  private readonly diskThreads = new ThreadedFs();

  constructor(options: StoreOptions) {
    this.root = path.resolve(options.root);
    this.policy = options.policy ?? OPEN_POLICY;
    const onError = options.onError ?? (() => {});
    loadSchemas(); // compile once, at start, so a broken schema fails fast
    this.sync = new DiskSync(this.root, this.index, this.policy);
    this.watcher = new ConfigWatcher(this.sync, { ...DEFAULT_WATCH, ...options.watch }, onError);
    const fs = options.fs ?? this.diskThreads;
    const staleMs = options.lock?.staleMs ?? DEFAULT_LOCK.staleMs;
    // Wait long enough for a lock left by a killed process to go stale and be taken over.
    const maxWaitMs = options.lock?.maxWaitMs ?? Math.max(DEFAULT_LOCK.maxWaitMs, staleMs * 2 + 2000);
    // A test's own seam takes locks on this thread; the disk threads take them under concurrency.
    const locks = new FileLocks(path.join(this.root, '.locks'), fs, { staleMs, maxWaitMs }, options.fs ? undefined : this.diskThreads);
    this.writer = new NetworkWriter(this.root, this.index, this.policy, fs, locks);
    this.writer.wrote = (rel, stamp, etag) => this.sync.wrote(rel, stamp, etag);
    this.cache = options.indexCache ? new IndexCache(options.indexCache, this.policy, onError) : null;
    this.gitCommit = options.gitCommit ?? false;
    this.gitAuthor = options.gitAuthor ?? { name: 'netcfg', email: 'netcfg@localhost' };
  }

  /**
   * Loads every file, then starts watching; resolves once both are done. The service is ready
   * once the index is loaded: chokidar's own walk of the folder (a second look at every entry, on
   * the same thread) comes after, and a reconcile once it is done catches any change that landed
   * in between (a stat per file, a read only for what changed).
   */
  async start(): Promise<void> {
    await Promise.all([this.load(), this.openJournal()]);
    await this.watcher.start();
    this.watcher.refreshChanged();
    void this.saveCache();
  }

  async close(): Promise<void> {
    await this.writer.settled();
    this.journal?.close();
    await this.watcher.close();
    await this.diskThreads.close();
    if (this.loaded) await this.saveCache();
  }

  /** Resolves once every write so far has released its lock (its folder in `.locks/` is gone). */
  writesSettled(): Promise<void> {
    return this.writer.settled();
  }

  private saveCache(): Promise<void> {
    return this.cache?.save(this.index.revision, () => this.sync.servedFiles()) ?? Promise.resolve();
  }

  /** The commits of a network's file, newest first (the folder must be in a git work tree). */
  async history(id: string, skip: number, limit: number): Promise<{ commits: Commit[]; total: number }> {
    const record = this.get(id);
    if (!this.journal) {
      throw new NetcfgError('NOT_IMPLEMENTED', 'History needs the config folder to be inside a git work tree; it is not.');
    }
    const parsed = this.parseId(record.id);
    return this.journal.history(EXTENSIONS.map((ext) => path.join(this.root, relativePathOf(parsed, ext))), skip, limit);
  }

  private async openJournal(): Promise<void> {
    this.journal = await GitJournal.open(this.root, this.gitAuthor);
    if (this.journal && this.gitCommit) {
      const journal = this.journal;
      this.writer.afterWrite = (file, id, fields) => journal.commit(file, `netcfg: update ${fields.join(', ')} of ${id.id}`);
    }
    this.writer.gitLock = this.journal?.indexLock ?? null;
  }

  get loaded(): boolean {
    return this.loadedAt !== null;
  }

  /** A network by id; INVALID_ID for a malformed id, NETWORK_NOT_FOUND for an unknown one. */
  get(id: string): NetworkRecord {
    const record = this.index.get(this.parseId(id).id);
    if (!record) throw new NetcfgError('NETWORK_NOT_FOUND', `Network ${id} was not found; GET /api/v1/networks lists the ids.`);
    return record;
  }

  list(offset: number, limit: number, family?: string): Page {
    return this.index.page(offset, limit, family);
  }

  onChange(listener: (change: IndexChange) => void): () => void {
    return this.index.onChange(listener);
  }

  /** Validates a PATCH body and writes it; see NetworkWriter for the write itself. */
  async update(id: string, body: unknown, ifMatch?: string): Promise<NetworkRecord> {
    const networkId = this.parseId(id);
    const details = loadSchemas().validateUpdate(body);
    const changes = body as Record<string, unknown>;
    if (typeof changes === 'object' && changes !== null && Array.isArray(changes.rpc_urls) && changes.rpc_urls.length <= 1000) {
      // URL rules beyond the schema; where the schema already flagged a place, its message stands.
      const flagged = new Set(details.map((d) => d.pointer));
      details.push(...checkRpcUrls(changes.rpc_urls, '/rpc_urls', this.policy).filter((d) => !flagged.has(d.pointer)));
    }
    if (details.length > 0) {
      throw new NetcfgError('VALIDATION_FAILED', `The request body is invalid: ${details[0]?.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`, { details });
    }
    if (!this.index.has(networkId.id) && !this.loaded) {
      throw new NetcfgError('NOT_READY', 'netcfg is still loading its configuration; retry in a moment.');
    }
    return this.writer.update({ id: networkId, changes, ifMatch });
  }

  readiness(): Readiness {
    const rootProblem = this.sync.rootProblem();
    const invalid = this.index.invalidFiles();
    const watcherFailed = this.watcher.status === 'failed' || this.watcher.status === 'stopped';
    const indexStatus: HealthStatus = !this.loaded || rootProblem ? 'unhealthy' : invalid.length > 0 ? 'degraded' : 'healthy';
    const watcherStatus: HealthStatus =
      this.watcher.status === 'watching' ? (this.watcher.lastError ? 'degraded' : 'healthy') : this.watcher.status === 'starting' ? 'degraded' : 'unhealthy';
    const failure = this.writer.lastFailure;
    const storageStatus: HealthStatus = failure ? 'degraded' : 'healthy';
    const ready = this.loaded && rootProblem === null && !watcherFailed;
    let reason: string | undefined;
    if (!this.loaded) reason = 'the configuration is still loading';
    else if (rootProblem) reason = rootProblem;
    else if (watcherFailed) reason = `the file watcher is ${this.watcher.status}`;
    else if (invalid.length > 0) reason = `${invalid.length} problem(s) in the config folder; the last valid version of each network is served`;
    else if (failure) reason = failure.message;
    else if (this.journal?.lastFailure) reason = this.journal.lastFailure.message;
    else if (this.watcher.lastError) reason = `the file watcher reported: ${this.watcher.lastError}`;
    else if (this.watcher.status === 'starting') reason = 'the file watcher is still starting';
    const statuses = [indexStatus, watcherStatus, storageStatus, this.journal?.lastFailure ? 'degraded' : 'healthy'];
    const status: HealthStatus = !ready ? 'unhealthy' : statuses.includes('degraded') ? 'degraded' : 'healthy';
    return {
      ready,
      status,
      ...(reason === undefined ? {} : { reason }),
      components: {
        index: { status: indexStatus, networks: this.index.size, invalid_files: invalid, loaded_at: this.loadedAt?.toISOString() ?? null },
        watcher: {
          status: watcherStatus,
          state: this.watcher.status,
          last_event_at: this.watcher.lastEventAt?.toISOString() ?? null,
          ...(this.watcher.lastError ? { error: this.watcher.lastError } : {}),
        },
        storage: { status: storageStatus, ...(failure ? { error: failure.message, failed_at: failure.at.toISOString() } : {}) },
        ...(this.journal ? { git: this.gitReadiness(this.journal) } : {}),
      },
      timestamp: new Date().toISOString(),
    };
  }

  private gitReadiness(journal: GitJournal): NonNullable<Readiness['components']['git']> {
    const failure = journal.lastFailure;
    return {
      status: failure ? 'degraded' : 'healthy',
      commit_on_write: this.gitCommit,
      pending_commits: journal.pendingCount,
      writes_waiting_for_git: journal.indexLock.waiting,
      ...(failure ? { error: failure.message } : {}),
    };
  }

  private parseId(id: string): NetworkId {
    const parsed = parseNetworkId(id);
    if (!parsed) {
      throw new NetcfgError('INVALID_ID', `"${truncate(id)}" is not a network id; an id is <family>:<name>, each part lower-case letters, digits, "-" or "_" (e.g. evm:sepolia).`);
    }
    return parsed;
  }

  /** The first full read: every file, in chunks, yielding so /ready can answer 503 meanwhile. */
  private async load(): Promise<void> {
    sweepTempFiles(this.root);
    this.index.beginBulk();
    const { ids, foreign, listing } = this.sync.listTargets();
    // From the index cache first (an lstat per file), then whatever changed since, in parallel.
    listing.cache = this.cache?.read();
    let toParse = [...ids.values()];
    if (listing.cache) {
      toParse = toParse.filter((id) => {
        const obs = this.sync.observeCached(id, listing);
        if (obs) this.sync.apply(obs);
        return obs === null;
      });
    }
    await loadInParallel({
      root: this.root,
      ids: toParse,
      listing,
      policy: this.policy,
      workers: workersFor(ids.size),
      observeHere: (id) => this.sync.observe(id, listing),
      apply: (obs) => this.sync.apply(obs),
    });
    for (const [rel, reason] of foreign) this.sync.refreshForeign(rel, reason);
    if (listing.cache && toParse.length === 0) this.cache?.markCurrent(this.index.revision);
    this.index.packBodies();
    this.loadedAt = new Date();
  }
}

function truncate(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we hide
  const printable = s.replace(/[\u0000-\u001f\u007f]/g, '?');
  return printable.length > 80 ? `${printable.slice(0, 77)}...` : printable;
}
