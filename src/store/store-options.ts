/**
 * What a store is built with (the settings main reads for it, and what tests hand in), and what a
 * write is asked with and answers: the store's side of its callers' contract (network-store.ts).
 */
import type { WriteNote } from './actor.js';
import type { NetworkIndex } from './index/network-index.js';
import type { GitAuthor } from './git/work-tree.js';
import type { NetworkRecord } from './network-record.js';
import type { GitSyncSettings } from './store-git.js';
import type { UrlPolicy } from './validation/url-rules.js';
import type { WatchOptions } from './watch/watcher.js';
import type { DiskSteps } from './write/disk-steps.js';
import type { UrlCheck, UrlFinding } from './write/url-check.js';
import type { LockOptions } from './write/write-lock.js';

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
export function rightsOf(how: WriteHow): { reveal: boolean; changeReferences: boolean } {
  return { reveal: how.revealSecrets === true, changeReferences: how.changeReferences === true };
}
