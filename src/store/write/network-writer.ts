/**
 * PATCH's write path, one linear sequence in the network's turn in this process: read the file
 * (only what the read path would serve: current-file.ts), check If-Match against the hash of those
 * bytes, splice the new values into the text (every other byte, comments included, stays:
 * yaml-edit.ts), validate the result with the loader's own code, take the network's
 * cross-process lock, write a temp file and fsync it, rename it over the file if the file still
 * holds the bytes read, fsync the folder, update the index, answer. A file changed since it was
 * read (another replica, a git checkout) is read again. With GIT_SYNC the write is queued for
 * the next push (git-sync.ts) before the lock is let go, served once the push carried it, and made
 * again on the remote's new version when the push was rejected.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { NetcfgError } from '../../errors.js';
import type { PushOutcome } from '../git/git-sync.js';
import { FILE_ONLY, type WriteStrategy } from './write-strategy.js';
import type { ConfigFolder } from '../files/config-folder.js';
import type { NetworkId } from '../files/layout.js';
import { isGone } from '../files/served-file.js';
import type { NetworkIndex } from '../index/network-index.js';
import type { NetworkRecord } from '../network-record.js';
import { etagOf, parseNetworkData, parseYaml } from '../validation/network-file.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import { fileGone, readCurrent, storageError, type Current } from './current-file.js';
import { FileReplacer } from './file-replacer.js';
import type { FsSeam } from './fs-seam.js';
import type { HeldLock, WriteLocks } from './write-lock.js';
import { detailsOf, editedText, ifMatchAccepts } from './network-edit.js';
import { actorLabel, actorTrailer, authorLineOf, type Actor } from '../actor.js';

export interface UpdateRequest {
  id: NetworkId;
  /** Top-level fields to replace, already validated (validation/network-rules.ts). */
  changes: Record<string, unknown>;
  /** The If-Match header as sent, if any. */
  ifMatch?: string | undefined;
  /** Who writes: the commit's author and the change event's actor. */
  actor: Actor;
}

/** A write done in this clone; with GIT_SYNC, `pushed` settles once the remote has it. */
interface Written {
  record: NetworkRecord;
  pushed?: Promise<PushOutcome> | undefined;
}

/** Why an attempt must be made again: the file moved on since it was read, is gone, or is git's half-written one. */
type Retry = 'moved' | 'gone' | 'git-busy';

/** Reads of a file found gone (or half-written) while git works before a PATCH gives up, in a git work tree. */
const GIT_ATTEMPTS = 5;
/** Reads of a file that keeps changing under the write (another process writing it) before a 412. */
const MOVED_ATTEMPTS = 3;
/** Pushes a remote that moved on may reject before a PATCH gives up (GIT_SYNC). */
const PUSH_ATTEMPTS = 10;

export class NetworkWriter {
  /** The last write the disk refused, until a write succeeds again (shown in readiness). */
  lastFailure: { at: Date; message: string; dir?: string } | null = null;
  private readonly files: FileReplacer;
  private readonly refused = (message: string): void => {
    this.lastFailure = { at: new Date(), message };
  };

  constructor(
    /** netcfg's own git identity: its commits' committer, and the author of what the operator writes (actor.ts). */
    private readonly netcfgAuthor: { name: string; email: string },
    private readonly folder: ConfigFolder,
    private readonly index: NetworkIndex,
    private readonly policy: UrlPolicy,
    private readonly fs: FsSeam,
    private readonly locks: WriteLocks,
    private readonly strategy: WriteStrategy = FILE_ONLY,
  ) {
    this.files = new FileReplacer(fs);
  }

  /** Resolves once every write queued so far is done. */
  settled(): Promise<void> {
    return this.locks.settled();
  }

  async update(request: UpdateRequest): Promise<NetworkRecord> {
    const started = performance.now();
    try {
      for (let attempt = 1; ; attempt++) {
        const written = await this.locks.inTurn(this.strategy.upstream ? '*' : request.id.id, () => this.attempts(request));
        if (!written.pushed || (await written.pushed) === 'pushed') return written.record;
        // Rejected: the clone is at the remote's new head; the next attempt edits that version (If-Match is checked against it).
        if (attempt >= PUSH_ATTEMPTS || performance.now() - started > (this.strategy.upstream?.retryForMs ?? Infinity)) throw new NetcfgError('GIT_REMOTE_UNAVAILABLE', `The remote kept moving while ${request.id.id} was pushed; nothing was changed, retry the request.`);
        await delay(Math.random() * 20 * attempt); // jitter: replicas racing on one branch take turns
      }
    } catch (err) {
      // The lock itself can be what the disk refused (EROFS, ENOSPC on its folder): show it too.
      if (err instanceof NetcfgError && err.code === 'STORAGE_UNAVAILABLE' && !this.lastFailure) this.refused(err.message);
      throw err;
    }
  }

  private async attempts(request: UpdateRequest): Promise<Written> {
    // After a file moved on under a write (most likely another replica's write), the next read
    // is made holding the lock, so that replica cannot win every round. A write that is
    // committed to git holds it from its read through its commit.
    let held: HeldLock | null = this.strategy.commit || this.strategy.upstream ? await this.locks.acquire(request.id) : null;
    try {
      for (let attempt = 1; ; attempt++) {
        const result = await this.attempt(request, held);
        if (typeof result !== 'string') return result;
        if (result === 'moved') {
          if (attempt >= MOVED_ATTEMPTS) throw new NetcfgError('PRECONDITION_FAILED', `${request.id.id} kept changing on disk while it was being written; read it again and retry.`);
          held ??= await this.locks.acquire(request.id);
          continue;
        }
        // Not there, or not whole, while a git command rewrites the tree: maybe only for the
        // moment a checkout replaces the file. The next attempt first waits for git's lock, so it
        // reads what git wrote; only a file still gone once git is idle is a 404.
        if (this.strategy.gitLock !== null && attempt < GIT_ATTEMPTS) continue;
        if (result === 'gone') throw new NetcfgError('NETWORK_NOT_FOUND', `Network ${request.id.id} does not exist (its file is gone); nothing was written.`);
        throw new NetcfgError('LOCK_TIMEOUT', `git kept rewriting ${request.id.id}'s file while it was being read; nothing was written, retry the request.`);
      }
    } finally {
      await held?.release();
    }
  }

  /** One read-edit-write; `held` is the network's lock when this attempt already holds it. */
  private async attempt(request: UpdateRequest, held: HeldLock | null): Promise<Written | Retry> {
    const { id } = request;
    await this.strategy.gitLock?.whenFree(this.locks.maxWaitMs);
    const current = await readCurrent(this.folder, this.fs, id, this.refused);
    if (current === null) return 'gone';
    const { rel, bytes } = current;
    const etag = etagOf(bytes);
    if (request.ifMatch !== undefined && !ifMatchAccepts(request.ifMatch, etag)) {
      throw new NetcfgError('PRECONDITION_FAILED', `${id.id} has changed since the ETag in If-Match was read; GET it again and retry with the new ETag.`, { etag });
    }
    // Only what the read path serves is edited: the current version must be a valid network.
    const text = bytes.toString('utf8');
    const parsed = parseYaml(text);
    const { outcome, data: read } = parseNetworkData(text, id, rel, this.policy, parsed);
    if (!outcome.ok) {
      // git writes a file in place after creating it: read while a checkout runs, it may be half there.
      if (await this.gitRewriting(id, bytes)) return 'git-busy';
      const what = parsed.problems.length > 0 ? 'is not valid YAML, so it cannot be edited safely' : 'is not a valid network file, so it is not served and cannot be edited';
      throw new NetcfgError('FILE_INVALID', `${rel} ${what}; fix the file in git first.`, { details: detailsOf(rel, outcome.problems) });
    }
    const data = (read ?? {}) as Record<string, unknown>; // the loader's own toJS of these bytes
    const changed = Object.entries(request.changes).filter(([key, value]) => !isDeepStrictEqual(data[key], value));
    if (changed.length === 0) {
      // With GIT_SYNC what was read may be a commit still on its way to the remote: answer once it is there.
      if (this.strategy.upstream) {
        const pushed = this.strategy.upstream.pushedSoFar();
        pushed.catch(() => undefined); // awaited by update() once the turn is let go, which may be after it failed
        return { record: outcome.record, pushed };
      }
      if (this.lastFailure) await this.heal(path.dirname(current.abs));
      this.index.put(outcome.record);
      return { record: outcome.record };
    }
    const next = editedText(id, rel, text, parsed.doc, data, changed, this.policy);
    return this.write(request, current, next, changed.map(([key]) => key), held);
  }

  /** Holding the network's cross-process lock: replace the file, serve the new record, commit it. */
  private async write({ id, actor }: UpdateRequest, current: Current, next: { text: string; record: NetworkRecord }, fields: string[], held: HeldLock | null): Promise<Written | Retry> {
    const lock = held ?? (await this.locks.acquire(id));
    // With GIT_SYNC the new version is served once it is in the remote, not when it is on this disk.
    const serveDisk = this.strategy.upstream?.hold(id);
    let written: Written | null = null;
    try {
      const outcome = await this.files.replace(current.realRoot, current.abs, current.mode, current.bytes, next.text, this.strategy.gitLock?.fileToCheck() ?? null, () => {
        // Checked last thing before the rename: proper-lockfile calls a lock compromised once it
        // went unrefreshed for staleMs, and another process may hold it now.
        if (lock.compromised) throw new NetcfgError('LOCK_TIMEOUT', `The write lock was lost (${lock.compromised.message}); nothing was written, retry the request.`);
      }).catch((err: unknown) => {
        throw storageError(err, `write ${current.rel}`, this.refused);
      });
      if (outcome === 'changed') return 'moved';
      if (outcome === 'gone') return 'gone';
      const message = `netcfg: update ${fields.join(', ')} of ${id.id}\n\n${actorTrailer(actor)}\n`;
      const author = authorLineOf(actor, this.netcfgAuthor);
      if (this.strategy.upstream && serveDisk) {
        // The remote is what makes it durable: a restart resets the clone to it, so no folder fsync here.
        const { pushed } = this.strategy.upstream.queue(current.abs, current.mode, next.text, message, author);
        const served = pushed.then(
          (outcome) => (serveDisk(outcome === 'pushed' ? actorLabel(actor) : null), outcome),
          (err: unknown) => {
            serveDisk(null); // the clone is back at the remote's version: not this write's
            throw err;
          },
        );
        written = { record: next.record, pushed: served };
        served.catch(() => undefined); // awaited by update() once the turn is let go
        return written;
      }
      // Renamed: the new file is what is on disk, so it is served, even if the folder sync fails.
      this.index.put(next.record, actorLabel(actor));
      await this.syncFolder(current, next.record);
      await this.strategy.commit?.(current.abs, message, author);
      return { record: next.record };
    } finally {
      if (!written) serveDisk?.(null);
      if (lock !== held) await lock.release();
    }
  }

  /** The folder's fsync after the rename: without it the rename may not survive a power cut. */
  private async syncFolder(current: Current, record: NetworkRecord): Promise<void> {
    const dir = path.dirname(current.abs);
    try {
      await this.fs.fsyncDir(dir);
      this.lastFailure = null;
    } catch (err) {
      if (isGone(err)) throw fileGone();
      const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      // The new file is in place but may not survive a power cut; say so rather than "unchanged".
      const message = `The new ${current.rel} was written but the disk refused to sync its folder (${code}); it may not survive a crash. Retry later.`;
      this.lastFailure = { at: new Date(), message, dir };
      throw new NetcfgError('STORAGE_UNAVAILABLE', message, { cause: err, etag: record.etag });
    }
  }

  /**
   * Whether invalid bytes just read may be git's half-written file: a git command holds its lock
   * now, or the file no longer holds those bytes (git finished and let go in between).
   */
  private async gitRewriting(id: NetworkId, read: Buffer): Promise<boolean> {
    if (this.strategy.gitLock === null) return false;
    if (this.strategy.gitLock.heldByOther()) return true;
    const now = await readCurrent(this.folder, this.fs, id, this.refused).catch(() => null);
    return now === null || !now.bytes.equals(read);
  }

  /**
   * After a refused write, a retry that finds nothing to change still proves the disk is back:
   * sync the folder (a rename may still be unsynced from the failure) and clear the failure.
   */
  private async heal(dir: string): Promise<void> {
    try {
      await this.fs.fsyncDir(this.lastFailure?.dir ?? dir);
      this.lastFailure = null;
    } catch (err) {
      throw storageError(err, `sync ${path.relative(this.folder.root, dir) || '.'}`, this.refused);
    }
  }
}
