/**
 * Replicas race for the remote branch, and a replica whose push was rejected needs a fetch, a
 * move and a push (about four push round trips) to try again: against a replica that pushes
 * back-to-back it would never get in (measured: 9-23 s of waiting). So a replica that keeps the
 * branch busy leaves it alone for that long now and then (jittered); its writers meanwhile join
 * its next push. Often while other replicas are known to push, rarely otherwise: a replica starved
 * from the start gets its first push in within YIELD_AFTER pushes of the busy one, and the
 * rejection that push causes tells the busy one. Until it is told, each pause of one busy spell is
 * twice the one before: a replica that needs longer than four of our push times to get in (a
 * slower or busier host: it failed so on a loaded machine) gets in on a later, longer pause.
 */
import { setTimeout as delay } from 'node:timers/promises';

/** Back-to-back pushes after which a replica leaves the branch alone for a moment... */
const YIELD_AFTER = 10;
/** ...or after only this many, while another replica is known to push (one of ours was rejected lately). */
const YIELD_AFTER_CONTENDED = 2;
const CONTENDED_MS = 60_000;
/** The pause, in push round trips: what a rejected replica needs to try again. */
const PAUSE_PUSHES = 4;
/** The longest pause of a busy spell, as a multiple of the first. */
const MAX_GROWTH = 8;

export type Sleep = (ms: number) => Promise<unknown>;

export class BranchShare {
  /** Pushes in a row after which more writes were already waiting. */
  private streak = 0;
  /** How long the last push took. */
  private pushMs = 0;
  /** When a push of ours was last rejected because another replica's got in first. */
  private rejectedAt = -Infinity;
  /** The next pause's multiple of the first, in this busy spell. */
  private growth = 1;

  /** `sleep`: how a pause is waited out (a test records the pauses instead). */
  constructor(private readonly sleep: Sleep = delay) {}

  /** Resolves when this replica may push: at once, or after its pause. */
  async turn(): Promise<void> {
    const contended = performance.now() - this.rejectedAt < CONTENDED_MS;
    if (this.streak < (contended ? YIELD_AFTER_CONTENDED : YIELD_AFTER)) return;
    this.streak = 0;
    const pauseMs = this.pushMs * PAUSE_PUSHES * (contended ? 1 : this.growth);
    if (!contended) this.growth = Math.min(this.growth * 2, MAX_GROWTH);
    await this.sleep(pauseMs * (0.75 + Math.random() * 0.5));
  }

  /** A push went through in `ms`; `moreWaiting`: writes were already queued for the next one. */
  pushed(ms: number, moreWaiting: boolean): void {
    this.pushMs = ms;
    this.streak = moreWaiting ? this.streak + 1 : 0;
    if (!moreWaiting) this.growth = 1; // the spell is over
  }

  /** A push of ours was rejected: another replica pushes to the branch too. */
  rejected(ms: number): void {
    this.pushMs = ms;
    this.rejectedAt = performance.now();
    this.growth = 1;
  }
}
