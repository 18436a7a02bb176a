/**
 * Where a write goes beyond its file, chosen once when the store is built and handed to the writer
 * (network-writer.ts): nowhere (no git work tree), a commit of that file alone (GIT_COMMIT), or
 * the remote branch, before the write's answer (GIT_SYNC). The store's git (store-git.ts) builds it
 * when it opens git at start, and the store builds the writer with it then. WriterParts, last, is
 * everything the writer is built with.
 */
import type { NetworkId } from '../files/layout.js';
import type { ConfigFolder } from '../files/config-folder.js';
import type { NetworkIndex } from '../index/network-index.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import type { DiskSteps } from './disk-steps.js';
import type { WriteLocks } from './write-lock.js';
import type { RetryCounts } from '../retries.js';

/** How a push ended for a write: in the remote, or refused because the remote moved on (it is made again). */
export type PushOutcome = 'pushed' | 'rejected';

/** git's own lock on the work tree (git/git-index-lock.ts), which a write waits for and looks at last before its rename. */
export interface GitLock {
  /** Resolves once no other git command holds it (true when it had to wait); LOCK_TIMEOUT after `maxWaitMs`. */
  whenFree(maxWaitMs: number): Promise<boolean>;
  /** True while a git command not run by this process holds it. */
  heldByOther(): boolean;
  /** The lock file to look at right before the rename, or null when it is no reason to stop. */
  fileToCheck(): string | null;
}

/** GIT_COMMIT: the work tree's git (work-tree.ts), which commits a file just written, alone. */
export interface Committer {
  /** Commits `file` with `message`, authored by `author` (a git identity); a failure is kept and retried, never thrown. */
  commit(file: string, message: string, author: string): Promise<void>;
  /** Before a write: commits `file` as it is on disk, alone, when HEAD does not hold `bytes` (the file as read); throws when git cannot. */
  commitFound(file: string, bytes: Buffer, message: string, author: string): Promise<void>;
}

/** An edit of a file made outside netcfg and never committed, found by a write: its own commit goes first. */
export interface FoundEdit {
  text: string;
  message: string;
  author: string;
}

/** GIT_SYNC: the remote branch every write goes to before its answer (git-sync.ts). */
export interface PushQueue {
  /** Queues the file just written (holding `text`) for the next push, as a commit of its own by `author`, after `found`'s. */
  queue(
    file: string,
    mode: number,
    text: string,
    message: string,
    author: string,
    found?: FoundEdit,
  ): { pushed: Promise<PushOutcome> };
  /** Whether `bytes` (a file as a write read it) are what the clone last committed or queued for it. */
  holds(file: string, bytes: Buffer): Promise<boolean>;
  /** Settles once every write queued so far was pushed. */
  pushedSoFar(): Promise<PushOutcome>;
  /** After this long a write the remote refused is not made again: its PATCH hears 503 within one more push. */
  readonly retryForMs: number;
}

/** GIT_SYNC: what the index serves of a network while its write is on its way to the remote (index/refresher.ts). */
export interface ServedHold {
  /** Keeps `id` served as it is now, whatever its file becomes. */
  hold(id: NetworkId): void;
  /** Serves what is on disk again, as changed by `actor` (null: not this write's). */
  release(id: NetworkId, actor: string | null): void;
}

export interface WriteStrategy {
  /** git's lock on the work tree holding the folder, if it is in one: a write waits for it. */
  readonly gitLock: GitLock | null;
  /** GIT_COMMIT: commits the file just written, under its lock. */
  readonly committer: Committer | null;
  /** GIT_SYNC: writes take one turn in this process (one clone), from their read through their commit, and wait for their push. */
  readonly gitSync: PushQueue | null;
}

/** Writes that go to their file and nowhere else (no git work tree). */
export const FILE_ONLY: WriteStrategy = Object.freeze({ gitLock: null, committer: null, gitSync: null });

/** What the writer works with, all given when it is built. */
export interface WriterParts {
  /** netcfg's own git identity: its commits' committer, and the author of what the operator writes (actor.ts). */
  netcfgAuthor: { name: string; email: string };
  folder: ConfigFolder;
  index: NetworkIndex;
  /** GIT_SYNC: keeps a network served at its pushed version while its write is on its way (the refresher). */
  served: ServedHold;
  policy: UrlPolicy;
  fs: DiskSteps;
  locks: WriteLocks;
  strategy: WriteStrategy;
  /** Where each retry and wait is counted (retries.ts). */
  retries: RetryCounts;
}
