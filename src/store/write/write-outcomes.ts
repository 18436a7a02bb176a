/**
 * How each write (a PATCH through the store) ended, counted since start for the metrics: `ok` for
 * an answer with the network (a change written, or nothing to change), else the NetcfgError code
 * it was refused with, lower-cased (`precondition_failed`, `storage_unavailable`, ...), and
 * `internal` for anything else. The codes are one closed list (errors.ts), so the counts stay few.
 */
import { NetcfgError, type ErrorCode } from '../../errors.js';

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
