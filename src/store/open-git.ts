/**
 * The git side of a store, opened at start: the journal of the work tree holding the config folder
 * (history, GIT_COMMIT's commits), and with GIT_SYNC the clone following its remote branch. The
 * writer is told where its writes go: committed after the write, or queued for the push that
 * answers it, and waiting for git's own lock on the work tree either way.
 */
import path from 'node:path';
import type { DiskSync } from './index/disk-sync.js';
import { GitJournal, type GitAuthor } from './git/git-journal.js';
import { GitSync } from './git/git-sync.js';
import type { DroppedNote } from './git/sync-report.js';
import type { NetworkWriter } from './write/network-writer.js';
import type { WriteLocks } from './write/write-lock.js';

export interface GitSyncSettings {
  intervalMs: number;
  /** The deadline of each command that talks to the remote (default 10 s). */
  remoteTimeoutMs?: number;
  /** Told once when a force-push dropped commits the clone had (to be logged loudly). */
  onDropped?: (note: DroppedNote) => void;
}

/** GIT_REMOTE_TIMEOUT_MS's default: a git host that has not answered in 10 s is not going to. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 10_000;

export interface GitParts {
  root: string;
  /** The clone's top on the way to the folder (config-folder.ts), when the folder is in one. */
  cloneTop: string | null;
  author: GitAuthor;
  gitCommit: boolean;
  gitSync: GitSyncSettings | undefined;
  locks: WriteLocks;
  writer: NetworkWriter;
  disk: DiskSync;
}

export async function openGit({ root, cloneTop, author, gitCommit, gitSync, locks, writer, disk }: GitParts): Promise<{ journal: GitJournal | null; follower: GitSync | null }> {
  // Found from the clone's top, not through the folder: a commit may have made the folder a link out.
  const journal = await GitJournal.open(cloneTop ?? root, author);
  if (!gitSync) {
    if (journal && gitCommit) writer.afterWrite = (file, message, commitAuthor) => journal.commit(file, message, commitAuthor);
    writer.gitLock = journal?.indexLock ?? null;
    return { journal, follower: null };
  }
  if (!journal) throw new Error(`GIT_SYNC needs CONFIG_DIR (${path.resolve(root)}) inside a git clone; it is not in a git work tree.`);
  // What moves the work tree waits for the writers' turn: never between a write's read and its commit.
  const remoteTimeoutMs = gitSync.remoteTimeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  const follower = await GitSync.open(journal, (fn) => locks.inTurn('*', fn), { staleMs: locks.staleMs, remoteTimeoutMs, onDropped: gitSync.onDropped });
  // Every PATCH is committed and pushed before its 200, and served once it is in the remote.
  writer.upstream = {
    hold: (id) => {
      disk.hold(id);
      return (actor) => disk.release(id, actor);
    },
    queue: (file, mode, text, message, commitAuthor) => follower.queue(file, mode, text, message, commitAuthor),
    pushedSoFar: () => follower.pushedSoFar(),
    // With the push in flight and the one after, a PATCH hears within three remote deadlines.
    retryForMs: 2 * remoteTimeoutMs,
  };
  writer.gitLock = journal.indexLock;
  return { journal, follower };
}
