/**
 * GIT_SYNC's push (group commit): the writes queued since the last push become one commit each,
 * all made by one `git fast-import`, and go out in one `git push`. Refused because the branch moved
 * on: made again on the remote's new head (at most MAX_REBASES times in a row); else every queued
 * write hears its answer and the clone goes back to the remote's head. git-sync.ts runs it.
 */
import { NetcfgError } from '../../errors.js';
import type { BranchShare } from './branch-share.js';
import { firstLine } from './git-process.js';
import { backToRemote, rebased, type PullParts } from './pull.js';
import { isRejection, pushFailure } from './remote-answers.js';
import { OUTGOING, type WriteQueue } from './write-queue.js';
import { MAX_REBASES, type RetryCounts } from '../retries.js';

export interface PushParts extends PullParts {
  /** Writes not pushed yet, oldest first. */
  unpushed: WriteQueue;
  share: BranchShare;
  /** The deadline of each command that talks to the remote. */
  remoteTimeoutMs: number;
  /** Where a re-push on the remote's new head is counted (retries.ts). */
  retries: RetryCounts;
  /** Where the clone's branch is (null: to be asked): read before a push, set once it moved the branch. */
  head: { get(): string | null; set(head: string | null): void };
}

export class Pusher {
  /** Pushes in a row made again on a remote that moved on, without asking the writers. */
  private rebases = 0;

  constructor(private readonly parts: PushParts) {}

  /** Resolves when this replica may push (branch-share.ts). */
  turn(): Promise<void> {
    return this.parts.share.turn();
  }

  /**
   * One commit per write queued so far, all by one `git fast-import`, then one push of them. Any
   * failure drops every queued write: each writer edits again on the remote's head, or hears 503.
   */
  async pushAll(): Promise<void> {
    const batch = this.parts.unpushed.length;
    let failure: unknown = null;
    let refused: NetcfgError | null = null;
    const base = this.parts.head.get() ?? (await this.parts.branch.rev('HEAD'));
    try {
      await this.parts.branch.fastImport(
        this.parts.unpushed.fastImportInput(batch, base, this.parts.workTree.authorLine),
      );
    } catch (err) {
      failure = err;
      refused = new NetcfgError(
        'STORAGE_UNAVAILABLE',
        `git could not commit ${[...this.parts.unpushed.paths()].join(', ')} (${firstLine(err)}); nothing was changed.`,
        { cause: err },
      );
    }
    const pushStarted = performance.now();
    if (failure === null) await this.parts.branch.push(OUTGOING, base).catch((err: unknown) => (failure = err));
    const pushMs = performance.now() - pushStarted;
    if (refused === null) this.parts.report.pushed(pushMs / 1000); // fast-import made the commits, so the push ran
    if (failure === null) {
      this.parts.report.reached('push');
      this.rebases = 0;
      // The remote has them: the branch and git's index move to them (the files on disk are theirs
      // already) before the answers, so a client that got its 200 finds `git status` clean.
      await this.parts.workTree
        .serial(() => this.parts.branch.moveTo(OUTGOING))
        .catch((err: unknown) =>
          this.parts.report.failed(`git could not move the clone to what it pushed: ${firstLine(err)}`),
        );
      this.parts.head.set(await this.parts.branch.rev('HEAD').catch(() => null));
      this.parts.unpushed.settleFirst(batch, 'pushed');
      this.parts.share.pushed(pushMs, this.parts.unpushed.length > 0);
      return;
    }
    // Refused because the branch moved (by the check before the push, or by a push that won the race to update the ref).
    // Writes that waited two remote deadlines already are answered now (their writers give up) rather than fetched for again.
    const moved = refused === null && isRejection(failure);
    const late = this.parts.unpushed.oldestAgeMs() >= 2 * this.parts.remoteTimeoutMs;
    const rejected = moved && (late || (await this.parts.branch.fetched()));
    if (rejected) this.parts.share.rejected(pushMs);
    const movedTo =
      rejected && !late && this.rebases < MAX_REBASES ? await rebased(this.parts, this.parts.unpushed.paths()) : null;
    if (movedTo !== null) {
      this.parts.head.set(movedTo);
      this.rebases++;
      this.parts.retries.count('rebased');
      return; // the loop pushes the same writes again, on top of the remote's head
    }
    this.rebases = 0;
    const unavailable =
      refused === null && !rejected
        ? await pushFailure(failure, this.parts.branch, this.parts.report, this.parts.remoteTimeoutMs)
        : null;
    await this.parts.exclusive(() =>
      this.parts.workTree.serial(async () => {
        // The writes queued after the batch go with it: the files on disk are put back too.
        await backToRemote(this.parts.branch, this.parts.report);
        this.parts.head.set(await this.parts.branch.rev('HEAD').catch(() => null));
        this.parts.unpushed.settleAll((i) =>
          rejected || (refused !== null && i >= batch) ? 'rejected' : (refused ?? unavailable ?? 'rejected'),
        );
      }),
    );
  }

  /**
   * What git refused beyond a push (the clone's own refs or files): every queued write hears 503,
   * and the clone goes back to the remote's last known head when git lets it.
   */
  async failAll(err: unknown): Promise<void> {
    this.parts.report.failed(`git failed in the clone: ${firstLine(err)}`);
    const refusal = new NetcfgError(
      'STORAGE_UNAVAILABLE',
      `git failed in the clone (${firstLine(err)}); nothing was changed, retry later.`,
      { cause: err },
    );
    await this.parts.exclusive(() =>
      this.parts.workTree.serial(async () => {
        await backToRemote(this.parts.branch, this.parts.report);
        this.parts.head.set(null); // asked again before the next push
        this.parts.unpushed.settleAll(() => refusal);
      }),
    );
  }
}
