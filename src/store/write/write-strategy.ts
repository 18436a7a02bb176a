/**
 * Where a write goes beyond its file, chosen once when the store is built and handed to the writer
 * (network-writer.ts): nowhere (no git work tree), a commit of that file alone (GIT_COMMIT), or
 * the remote branch, before the write's answer (GIT_SYNC). The store's git (store-git.ts) is the
 * strategy in a work tree; its parts are known once it has opened git at start.
 */
import type { NetworkId } from '../files/layout.js';
import type { GitIndexLock } from '../git/git-index-lock.js';
import type { PushOutcome } from '../git/git-sync.js';

/** GIT_COMMIT: called under the lock once a write is durable, to commit it with `message`, authored by `author` (a git identity). */
export type AfterWrite = (file: string, message: string, author: string) => Promise<void>;

/** GIT_SYNC: the remote branch every write goes to before its answer (git-sync.ts, wired by the store). */
export interface Upstream {
  /** Keeps `id` served at its pushed version; the function returned serves what is on disk again, as changed by an actor (null: not this write's). */
  hold(id: NetworkId): (actor: string | null) => void;
  /** Queues the file just written (holding `text`) for the next push, as a commit of its own by `author`. */
  queue(file: string, mode: number, text: string, message: string, author: string): { pushed: Promise<PushOutcome> };
  pushedSoFar(): Promise<PushOutcome>;
  /** After this long a write the remote refused is not made again: its PATCH hears 503 within one more push. */
  retryForMs: number;
}

/**
 * Where a write goes beyond its file, chosen once when the store is built: nowhere, a commit
 * (GIT_COMMIT) or the remote (GIT_SYNC). Its parts are known once git is open (store-git.ts).
 */
export interface WriteStrategy {
  /** git's lock on the work tree holding the folder, if it is in one: a write waits for it. */
  readonly gitLock: GitIndexLock | null;
  /** GIT_COMMIT: commits the file just written, under its lock. */
  readonly commit: AfterWrite | undefined;
  /** GIT_SYNC: writes take one turn in this process (one clone), from their read through their commit, and wait for their push. */
  readonly upstream: Upstream | null;
}

/** Writes that go to their file and nowhere else (no git work tree). */
export const FILE_ONLY: WriteStrategy = { gitLock: null, commit: undefined, upstream: null };
