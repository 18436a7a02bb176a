/**
 * Every reason a write is made again or waits, in one table: its bound, and what the client hears
 * past it. The writer (write/network-writer.ts) makes each attempt in one loop and the GIT_SYNC
 * push loop (git/git-sync.ts) re-pushes; both count each reason here, for readiness and metrics.
 * And how each write ended, counted for the metrics (WriteOutcomes).
 */
import { NetcfgError, type ErrorCode } from '../errors.js';

/** Reasons an attempt of a write is made again from its read. */
export type AttemptRetry = 'moved' | 'gone' | 'git-busy' | 'rejected';

/** Every counted reason: the attempts' and the waits'. */
export type RetryReason = AttemptRetry | 'lock-busy' | 'git-lock' | 'rebased';

interface AttemptBound {
  /** Attempts of one write that may end for this reason; the last one's client hears `refusal`. */
  attempts: number;
  refusal: (id: string) => NetcfgError;
}

export const ATTEMPT_RETRIES: Record<AttemptRetry, AttemptBound> = {
  /** The file changed between the read and the rename (another replica, a checkout): read again, holding the network's lock. */
  moved: {
    attempts: 3,
    refusal: (id) =>
      new NetcfgError(
        'PRECONDITION_FAILED',
        `${id} kept changing on disk while it was being written; read it again and retry.`,
      ),
  },
  /** In a git work tree, the file was not there while git rewrote the tree: read again once git's lock is free. Elsewhere the first is final. */
  gone: {
    attempts: 5,
    refusal: (id) =>
      new NetcfgError('NETWORK_NOT_FOUND', `Network ${id} does not exist (its file is gone); nothing was written.`),
  },
  /** In a git work tree, the file was not whole (git writes in place after creating it): read again once git's lock is free. */
  'git-busy': {
    attempts: 5,
    refusal: (id) =>
      new NetcfgError(
        'LOCK_TIMEOUT',
        `git kept rewriting ${id}'s file while it was being read; nothing was written, retry the request.`,
      ),
  },
  /** GIT_SYNC: the remote moved on and refused the push: the write is made again on its new head (and for at most two remote deadlines). */
  rejected: {
    attempts: 10,
    refusal: (id) =>
      new NetcfgError(
        'GIT_REMOTE_UNAVAILABLE',
        `The remote kept moving while ${id} was pushed; nothing was changed, retry the request.`,
      ),
  },
};

/**
 * The waits, bounded in time rather than count: 'lock-busy' (another process holds the network's
 * lock) and 'git-lock' (a git command holds index.lock) wait at most LockOptions.maxWaitMs, then
 * LOCK_TIMEOUT. 'rebased': GIT_SYNC re-pushes a refused batch on the remote's new head at most
 * this many times in a row before the writers are asked to edit again ('rejected').
 */
export const MAX_REBASES = 10;

/** How often each reason happened since start. */
export class RetryCounts {
  private readonly counts = new Map<RetryReason, number>();

  count(reason: RetryReason): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
  }

  /** Every reason with its count, zeros included. */
  snapshot(): Record<RetryReason, number> {
    const all: RetryReason[] = ['moved', 'gone', 'git-busy', 'rejected', 'lock-busy', 'git-lock', 'rebased'];
    return Object.fromEntries(all.map((r) => [r, this.counts.get(r) ?? 0])) as Record<RetryReason, number>;
  }
}

/**
 * How each write (a PATCH through the store) ended: `ok` for an answer with the network (a change
 * written, or nothing to change), else the NetcfgError code it was refused with, lower-cased
 * (`precondition_failed`, `storage_unavailable`, ...), and `internal` for anything else. The codes
 * are one closed list (errors.ts), so the counts stay few.
 */
/** A write's outcome as counted: `ok`, or the error code it ended with. */
export type WriteOutcome = 'ok' | Lowercase<ErrorCode>;

export class WriteOutcomes {
  private readonly counts = new Map<WriteOutcome, number>();

  /** Counts how `write` ends, and hands back its answer or its error unchanged. */
  async track<T>(write: Promise<T>): Promise<T> {
    try {
      const answer = await write;
      this.count('ok');
      return answer;
    } catch (err) {
      this.count(err instanceof NetcfgError ? (err.code.toLowerCase() as WriteOutcome) : 'internal');
      throw err;
    }
  }

  /** Every outcome seen so far with its count (`ok` always there, at 0 before the first write). */
  snapshot(): Partial<Record<WriteOutcome, number>> {
    return { ok: 0, ...Object.fromEntries(this.counts) };
  }

  private count(outcome: WriteOutcome): void {
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
  }
}
