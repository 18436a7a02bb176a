/**
 * PATCH's write path, one attempt at a time in the network's turn in this process: read the file
 * as the read path would (current-file.ts), check If-Match against its bytes' hash, splice the new
 * values into the text (comments stay: yaml-edit.ts) and validate it with the loader's code, take
 * the network's cross-process lock, replace the file if it still holds the bytes read
 * (file-replacer.ts), fsync the folder (disk-health.ts), serve it, and commit it or queue it for the push
 * (write-strategy.ts), after an edit of the file nobody committed, which gets a commit of its own (found-edit.ts).
 * Why an attempt is made again, and how often at most: retries.ts.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { NetcfgError } from '../../errors.js';
import type { PushOutcome, WriterParts, WriteStrategy } from './write-strategy.js';
import type { NetworkId } from '../files/layout.js';
import type { NetworkRecord } from '../network-record.js';
import { readCurrent, storageError, type Current } from './current-file.js';
import { DiskHealth } from './disk-health.js';
import { foundEdit } from '../edit/found-edit.js';
import { FileReplacer } from './file-replacer.js';
import type { HeldLock } from './write-lock.js';
import { planEdit, updateSubject, type EditPlan } from '../edit/network-edit.js';
import { actorLabel, authorLineOf, commitMessage, type Actor, type WriteNote } from '../actor.js';
import { ATTEMPT_RETRIES, type AttemptRetry } from '../retries.js';

export interface UpdateRequest {
  id: NetworkId;
  /** Top-level fields to replace, already validated (validation/network-rules.ts). */
  changes: Record<string, unknown>;
  /** The If-Match header as sent, if any. */
  ifMatch?: string | undefined;
  /** Who writes: the commit's author and the change event's actor. */
  actor: Actor;
  /** Why, when the writer is netcfg itself: its commit's subject, body and trailers (actor.ts' WriteNote). */
  note?: WriteNote | undefined;
}

/** A write done in this clone; with GIT_SYNC, `pushed` settles once the remote has it. */
interface Written {
  record: NetworkRecord;
  pushed?: Promise<PushOutcome> | undefined;
}

/** An update's last plan and the bytes it was made of: a retry that reads the same bytes plans nothing again. */
interface LastPlan {
  rel: string;
  bytes: Buffer;
  plan: EditPlan;
}

export class NetworkWriter {
  /** What the disk refused last, until a write succeeds again (shown in readiness). */
  private readonly disk: DiskHealth;
  private readonly files: FileReplacer;
  private readonly strategy: WriteStrategy;

  constructor(private readonly parts: WriterParts) {
    this.disk = new DiskHealth(parts.fs, parts.folder.root);
    this.files = new FileReplacer(parts.fs);
    this.strategy = parts.strategy;
  }

  /** The last write the disk refused, until a write succeeds again. */
  failure(): { at: Date; message: string } | null {
    return this.disk.failure();
  }

  /**
   * The write loop: one attempt (read, edit, replace, commit or queue for the push) in the
   * network's turn in this process, made again for the reasons of retries.ts, each within its bound.
   */
  async update(request: UpdateRequest): Promise<NetworkRecord> {
    const { gitSync, committer } = this.strategy;
    const started = performance.now();
    const tries = new Map<AttemptRetry, number>();
    // A write committed to git holds the lock from its read through its commit; after the file
    // moved on under a write (most likely another replica's), every write does, so that replica cannot win every round.
    let lockFirst = committer !== null || gitSync !== null;
    const last: { plan?: LastPlan } = {};
    try {
      for (;;) {
        const step = await this.parts.locks.inTurn(gitSync ? '*' : request.id.id, () =>
          this.attempt(request, lockFirst, last),
        );
        // Rejected: the clone is at the remote's new head; the next attempt edits that version (If-Match is checked against it).
        const reason =
          typeof step === 'string' ? step : step.pushed && (await step.pushed) !== 'pushed' ? 'rejected' : null;
        if (reason === null) return (step as Written).record;
        this.parts.retries.count(reason);
        const n = (tries.get(reason) ?? 0) + 1;
        tries.set(reason, n);
        // Outside a git work tree a file that is not there is gone for good: nothing will put it back.
        const final = n >= ATTEMPT_RETRIES[reason].attempts || (reason === 'gone' && this.strategy.gitLock === null);
        if (final || (reason === 'rejected' && performance.now() - started > (gitSync?.retryForMs ?? Infinity)))
          throw ATTEMPT_RETRIES[reason].refusal(request.id.id);
        if (reason === 'moved') lockFirst = true;
        if (reason === 'rejected') await delay(Math.random() * 20 * n); // jitter: replicas racing on one branch take turns
      }
    } catch (err) {
      // The lock itself can be what the disk refused (EROFS, ENOSPC on its folder): show it too.
      if (err instanceof NetcfgError && err.code === 'STORAGE_UNAVAILABLE' && !this.disk.failing)
        this.disk.refused(err.message);
      throw err;
    }
  }

  /** One read-edit-write, holding the network's lock throughout when `lockFirst`. */
  private async attempt(
    request: UpdateRequest,
    lockFirst: boolean,
    last: { plan?: LastPlan },
  ): Promise<Written | AttemptRetry> {
    const held = lockFirst ? await this.lock(request.id) : null;
    try {
      return await this.readAndEdit(request, held, last);
    } finally {
      await held?.release();
    }
  }

  private async readAndEdit(
    request: UpdateRequest,
    held: HeldLock | null,
    last: { plan?: LastPlan },
  ): Promise<Written | AttemptRetry> {
    const { id } = request;
    // Not there, or not whole, while a git command rewrites the tree: maybe only for the moment a
    // checkout replaces the file. Each attempt first waits for git's lock, so it reads what git wrote.
    if (await this.strategy.gitLock?.whenFree(this.parts.locks.maxWaitMs)) this.parts.retries.count('git-lock');
    const current = await readCurrent(this.parts.folder, this.parts.fs, id, this.disk.refused);
    if (current === null) return 'gone';
    const plan = this.planOf(request, current, last);
    if (plan.kind === 'invalid') {
      // git writes a file in place after creating it: read while a checkout runs, it may be half there.
      if (await this.gitRewriting(id, current.bytes)) return 'git-busy';
      throw plan.refusal;
    }
    if (plan.kind === 'same') {
      // With GIT_SYNC what was read may be a commit still on its way to the remote: answer once it is there.
      if (this.strategy.gitSync) {
        const pushed = this.strategy.gitSync.pushedSoFar();
        pushed.catch(() => undefined); // awaited by update() once the turn is let go, which may be after it failed
        return { record: plan.record, pushed };
      }
      if (this.disk.failing) await this.disk.heal(path.dirname(current.abs));
      this.parts.index.put(plan.record);
      return { record: plan.record };
    }
    return this.write(request, current, plan, plan.fields, held);
  }

  /** The edit of what was read: the last attempt's when it read the same bytes (a push rejected for another file's change). */
  private planOf(request: UpdateRequest, current: Current, last: { plan?: LastPlan }): EditPlan {
    const { id, changes, ifMatch } = request;
    if (last.plan?.rel === current.rel && last.plan.bytes.equals(current.bytes)) return last.plan.plan;
    const plan = planEdit(
      id,
      current.rel,
      current.bytes,
      changes,
      ifMatch,
      this.parts.policy,
      this.parts.index.get(id.id),
    );
    last.plan = { rel: current.rel, bytes: current.bytes, plan };
    return plan;
  }

  /** The network's cross-process lock, counting a wait for another process's. */
  private async lock(id: NetworkId): Promise<HeldLock> {
    const held = await this.parts.locks.acquire(id);
    if (held.waited) this.parts.retries.count('lock-busy');
    return held;
  }

  /** Holding the network's cross-process lock: replace the file, serve the new record, commit it. */
  private async write(
    { id, actor, note }: UpdateRequest,
    current: Current,
    next: { text: string; record: NetworkRecord },
    fields: string[],
    held: HeldLock | null,
  ): Promise<Written | AttemptRetry> {
    const { gitSync, committer, gitLock } = this.strategy;
    const lock = held ?? (await this.lock(id));
    // With GIT_SYNC the new version is served once it is in the remote, not when it is on this disk.
    if (gitSync) this.parts.served.hold(id);
    let queued = false;
    try {
      const found = await foundEdit(this.strategy, this.parts.netcfgAuthor, actor, current);
      const outcome = await this.files
        .replace(
          current.realRoot,
          current.abs,
          current.mode,
          current.bytes,
          next.text,
          gitLock?.fileToCheck() ?? null,
          () => {
            // Checked last thing before the rename: proper-lockfile calls a lock compromised once it
            // went unrefreshed for staleMs, and another process may hold it now.
            if (lock.compromised)
              throw new NetcfgError(
                'LOCK_TIMEOUT',
                `The write lock was lost (${lock.compromised.message}); nothing was written, retry the request.`,
              );
          },
        )
        .catch((err: unknown) => {
          throw storageError(err, `write ${current.rel}`, this.disk.refused);
        });
      if (outcome !== 'renamed') return outcome === 'changed' ? 'moved' : 'gone';
      const message = commitMessage(updateSubject(id, fields), actor, note);
      const author = authorLineOf(actor, this.parts.netcfgAuthor);
      if (gitSync) {
        // The remote is what makes it durable: a restart resets the clone to it, so no folder fsync here.
        const pushed = gitSync.queue(current.abs, current.mode, next.text, message, author, found).pushed.then(
          (outcome) => (this.parts.served.release(id, outcome === 'pushed' ? actorLabel(actor) : null), outcome),
          (err: unknown) => {
            this.parts.served.release(id, null); // the clone is back at the remote's version: not this write's
            throw err;
          },
        );
        queued = true;
        pushed.catch(() => undefined); // awaited by update() once the turn is let go
        return { record: next.record, pushed };
      }
      // Renamed: the new file is what is on disk, so it is served, even if the folder sync fails.
      this.parts.index.put(next.record, actorLabel(actor));
      await this.disk.syncFolder(path.dirname(current.abs), current.rel, next.record.etag);
      await committer?.commit(current.abs, message, author);
      return { record: next.record };
    } finally {
      if (gitSync && !queued) this.parts.served.release(id, null);
      if (lock !== held) await lock.release();
    }
  }

  /**
   * Whether invalid bytes just read may be git's half-written file: a git command holds its lock
   * now, or the file no longer holds those bytes (git finished and let go in between).
   */
  private async gitRewriting(id: NetworkId, read: Buffer): Promise<boolean> {
    if (this.strategy.gitLock === null) return false;
    if (this.strategy.gitLock.heldByOther()) return true;
    const now = await readCurrent(this.parts.folder, this.parts.fs, id, this.disk.refused).catch(() => null);
    return now === null || !now.bytes.equals(read);
  }
}
