/**
 * The store's parts, built from its options and wired to each other once (network-store.ts holds
 * them and is what the rest of netcfg calls): the folder, what reads it back into the index, the
 * watcher, the write locks, git, the write paths and the index cache.
 */
import path from 'node:path';
import { ConfigFolder } from './files/config-folder.js';
import { LOCK_DIR } from './files/layout.js';
import { IndexCache } from './index/index-cache.js';
import type { NetworkIndex } from './index/network-index.js';
import { Refresher } from './index/refresher.js';
import type { NetworkRecord } from './network-record.js';
import type { RetryCounts } from './retries.js';
import { StoreGit } from './store-git.js';
import type { StoreOptions } from './store-options.js';
import { StoreWrites } from './store-writes.js';
import { loadSchemas } from './validation/schemas.js';
import { OPEN_POLICY, type UrlPolicy } from './validation/url-rules.js';
import { ConfigWatcher, DEFAULT_WATCH } from './watch/watcher.js';
import { realDisk } from './write/disk-steps.js';
import { DEFAULT_LOCK, WriteLocks } from './write/write-lock.js';

export interface StoreParts {
  folder: ConfigFolder;
  policy: UrlPolicy;
  /** Disk -> index: what the folder holds, read back and served (refresher.ts). */
  refresher: Refresher;
  watcher: ConfigWatcher;
  locks: WriteLocks;
  /** The work tree holding the folder, and with GIT_SYNC the clone following its remote: the writer's write strategy. */
  git: StoreGit;
  /** update(), create() and proposeUpdate(), checked alike; open once git is (store-writes.ts). */
  writes: StoreWrites;
  cache: IndexCache | null;
}

/** What the parts ask of the store that holds them. */
export interface StoreSide {
  index: NetworkIndex;
  retries: RetryCounts;
  /** Whether the first load is done. */
  loaded: () => boolean;
  /** The version served of a network (its 404 included). */
  served: (id: string) => NetworkRecord;
}

export function storeParts(root: string, options: StoreOptions, store: StoreSide): StoreParts {
  const { index, retries } = store;
  const policy = options.policy ?? OPEN_POLICY;
  const onError = options.onError ?? (() => {});
  loadSchemas(); // compile once, at start, so a broken schema fails fast
  // With GIT_SYNC the clone is netcfg's own: no link below its top is the operator's.
  const folder = new ConfigFolder(root, options.gitSync !== undefined);
  const refresher = new Refresher(folder, index, policy);
  const fs = options.fs ?? realDisk;
  const staleMs = options.lock?.staleMs ?? DEFAULT_LOCK.staleMs;
  // A killed process's lock goes stale and is taken over within it.
  const maxWaitMs = options.lock?.maxWaitMs ?? Math.max(DEFAULT_LOCK.maxWaitMs, staleMs * 2 + 2000);
  const locks = new WriteLocks(() => path.join(folder.forWriting(), LOCK_DIR), fs, { staleMs, maxWaitMs });
  const author = options.gitAuthor ?? { name: 'netcfg', email: 'netcfg@localhost' };
  const git = new StoreGit({
    root,
    cloneTop: folder.cloneTop,
    author,
    gitCommit: options.gitCommit ?? false,
    gitSync: options.gitSync,
    locks,
    retries,
  });
  const watch = { ...DEFAULT_WATCH, ...options.watch };
  const watcher = new ConfigWatcher(refresher, watch, onError, () => git.rewriting());
  const writes = new StoreWrites({
    writer: { netcfgAuthor: author, folder, index, served: refresher, policy, fs, locks, retries },
    git,
    watcher,
    urlCheck: options.urlCheck,
    author,
    loaded: store.loaded,
    served: store.served,
  });
  const cache = options.indexCache ? new IndexCache(options.indexCache, policy, onError) : null;
  return { folder, policy, refresher, watcher, locks, git, writes, cache };
}
