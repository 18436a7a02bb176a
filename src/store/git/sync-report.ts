/**
 * What GIT_SYNC knows of the clone against its remote branch, as readiness shows it: when it last
 * pulled and pushed, the last failure, a branch someone deleted, and commits a force-push dropped.
 * A rewritten history is the one thing that loses acknowledged writes without any error, so it is
 * said loudly: in the log once, and in readiness (degraded) for DROPPED_NOTICE_MS after.
 */
import type { DroppedCommit, TrackedBranch } from './tracked-branch.js';

/** How long readiness stays degraded after a force-push dropped commits (the record itself stays until restart). */
export const DROPPED_NOTICE_MS = 60 * 60_000;

export interface DroppedNote {
  at: string;
  /** The remote's head that no longer holds them: the push that dropped them. */
  remote_head: string;
  commits: DroppedCommit[];
  message: string;
}

/** Where a GIT_SYNC clone stands against its remote branch. */
export interface SyncStatus {
  head: string | null;
  upstream: string;
  last_pull_at: string | null;
  last_push_at: string | null;
  /** Writes on disk waiting for their push. */
  ahead: number;
  /** Commits of the remote branch (as last fetched) the clone does not have yet. */
  behind: number;
  last_error: string | null;
  /** The remote branch does not exist (deleted): writes are refused, nothing re-creates it. */
  branch_missing: boolean;
  /** The last force-push that dropped commits the clone had, if any since start. */
  dropped: DroppedNote | null;
  /** Why the git component is degraded now (the failure, the missing branch, a recent drop); null when it is not. */
  problem: string | null;
}

export class SyncReport {
  lastPullAt: Date | null = null;
  lastPushAt: Date | null = null;
  lastError: string | null = null;
  branchMissing = false;
  private droppedNote: DroppedNote | null = null;

  constructor(
    readonly upstream: string,
    /** Told once per force-push that dropped commits (the store logs it). */
    private readonly onDropped: ((note: DroppedNote) => void) | undefined,
  ) {}

  /** Before the clone moves to the remote branch: the commits it has that the branch lost, said loudly. */
  async noteDropped(branch: TrackedBranch): Promise<void> {
    const commits = await branch.dropped();
    if (commits.length > 0) this.onDropped?.(this.dropped(commits, await branch.rev(this.upstream)));
  }

  /** A pull or push reached the remote. */
  reached(kind: 'pull' | 'push'): void {
    if (kind === 'pull') this.lastPullAt = new Date();
    else this.lastPushAt = new Date();
    this.lastError = null;
    this.branchMissing = false;
  }

  /** The remote branch is gone; returns the sentence said everywhere. */
  missing(): string {
    this.branchMissing = true;
    this.lastError = `the remote branch ${this.upstream} does not exist any more (deleted on the remote?); writes are refused until it is back, and netcfg will not re-create it`;
    return this.lastError;
  }

  /** A force-push to `remoteHead` dropped `commits`; returns the note (for the log). */
  dropped(commits: DroppedCommit[], remoteHead: string): DroppedNote {
    const list = commits
      .slice(0, 5)
      .map((c) => `${c.sha.slice(0, 7)} "${c.subject}" by ${c.author}`)
      .join(', ');
    const message = `the remote branch ${this.upstream} was rewritten (a force-push, now at ${remoteHead.slice(0, 7)}): ${commits.length} commit(s) acknowledged before are gone from it and no longer served: ${list}${commits.length > 5 ? ', ...' : ''}`;
    this.droppedNote = { at: new Date().toISOString(), remote_head: remoteHead, commits: commits.slice(0, 50), message };
    return this.droppedNote;
  }

  status(fields: { head: string | null; ahead: number; behind: number }): SyncStatus {
    const recentDrop = this.droppedNote !== null && Date.now() - Date.parse(this.droppedNote.at) < DROPPED_NOTICE_MS;
    return {
      head: fields.head,
      upstream: this.upstream,
      last_pull_at: this.lastPullAt?.toISOString() ?? null,
      last_push_at: this.lastPushAt?.toISOString() ?? null,
      ahead: fields.ahead,
      behind: fields.behind,
      last_error: this.lastError,
      branch_missing: this.branchMissing,
      dropped: this.droppedNote,
      problem: this.lastError ?? (recentDrop ? (this.droppedNote?.message ?? null) : null),
    };
  }
}
