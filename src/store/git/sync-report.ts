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
export interface GitSyncStatus {
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

/** How many push durations are kept for the metrics, which read those after their last look at each scrape. */
export const PUSH_TIMES_KEPT = 1024;

/** GIT_SYNC's traffic with the remote since start, for the metrics. */
export interface GitCounts {
  pulls: number;
  /** Pulls that could not reach the remote, found its branch gone, or could not move the clone. */
  pull_failures: number;
  /** Pushes made (the branch taking them, refusing them because it moved on, or failing). */
  pushes: number;
  /** Pushes that failed for another reason than the branch moving on (the remote unreachable, silent, gone). */
  push_failures: number;
  /** The durations of the last pushes in seconds, oldest first; the last one is push number `pushes`. */
  push_seconds: readonly number[];
}

export class GitSyncReport {
  private readonly tally = { pulls: 0, pull_failures: 0, pushes: 0, push_failures: 0 };
  private readonly pushSeconds: number[] = [];
  private lastPullAt: Date | null = null;
  private lastPushAt: Date | null = null;
  private lastErrorText: string | null = null;
  private missingBranch = false;
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

  /** The last failure to reach the remote or to move the clone, until the remote is reached again. */
  get lastError(): string | null {
    return this.lastErrorText;
  }

  /** The remote branch does not exist (deleted): writes are refused. */
  get branchMissing(): boolean {
    return this.missingBranch;
  }

  /** A pull or push reached the remote. */
  reached(kind: 'pull' | 'push'): void {
    if (kind === 'pull') this.lastPullAt = new Date();
    else this.lastPushAt = new Date();
    this.lastErrorText = null;
    this.missingBranch = false;
  }

  /** A pull ended, having reached the remote and moved the clone (`ok`) or not. */
  pulled(ok: boolean): void {
    this.tally.pulls++;
    if (!ok) this.tally.pull_failures++;
  }

  /** A push ran for `seconds` (whatever it ended in). */
  pushed(seconds: number): void {
    this.tally.pushes++;
    this.pushSeconds.push(seconds);
    if (this.pushSeconds.length > PUSH_TIMES_KEPT) this.pushSeconds.shift();
  }

  /** A push failed for another reason than the branch moving on. */
  pushFailed(): void {
    this.tally.push_failures++;
  }

  counts(): GitCounts {
    return { ...this.tally, push_seconds: [...this.pushSeconds] };
  }

  /** Something failed (said in one line, without credentials); shown until the remote is reached again. */
  failed(message: string): void {
    this.lastErrorText = message;
  }

  /** The remote branch is gone; returns the sentence said everywhere. */
  missing(): string {
    this.missingBranch = true;
    this.lastErrorText =
      `the remote branch ${this.upstream} does not exist any more (deleted on the remote?); ` +
      `writes are refused until it is back, and netcfg will not re-create it`;
    return this.lastErrorText;
  }

  /** A force-push to `remoteHead` dropped `commits`; returns the note (for the log). */
  dropped(commits: DroppedCommit[], remoteHead: string): DroppedNote {
    const list = commits
      .slice(0, 5)
      .map((c) => `${c.sha.slice(0, 7)} "${c.subject}" by ${c.author}`)
      .join(', ');
    const message =
      `the remote branch ${this.upstream} was rewritten (a force-push, now at ${remoteHead.slice(0, 7)}): ` +
      `${commits.length} commit(s) acknowledged before are gone from it and no longer served: ${list}${commits.length > 5 ? ', ...' : ''}`;
    this.droppedNote = {
      at: new Date().toISOString(),
      remote_head: remoteHead,
      commits: commits.slice(0, 50),
      message,
    };
    return this.droppedNote;
  }

  status(fields: { head: string | null; ahead: number; behind: number }): GitSyncStatus {
    const recentDrop = this.droppedNote !== null && Date.now() - Date.parse(this.droppedNote.at) < DROPPED_NOTICE_MS;
    return {
      head: fields.head,
      upstream: this.upstream,
      last_pull_at: this.lastPullAt?.toISOString() ?? null,
      last_push_at: this.lastPushAt?.toISOString() ?? null,
      ahead: fields.ahead,
      behind: fields.behind,
      last_error: this.lastErrorText,
      branch_missing: this.missingBranch,
      dropped: this.droppedNote,
      problem: this.lastErrorText ?? (recentDrop ? (this.droppedNote?.message ?? null) : null),
    };
  }
}
