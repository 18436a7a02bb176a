/**
 * PATCH's write path. In the network's turn in this process: read the file from disk (git may have
 * changed it a moment ago; only a file the read path would serve, served-file.ts, and only if its
 * current version is a valid network), check If-Match against the hash of those bytes, splice the new values
 * into the text (every other byte, comments included, stays; see yaml-edit.ts), then, holding the
 * network's cross-process lock, write a temp file and fsync it, while this thread validates the
 * whole result with the same code that loads files (the rename waits for that verdict:
 * go-ahead.ts), check the file still holds the bytes read, rename it over the file and fsync the
 * folder. The write takes that lock itself, for its own steps (FileLocks.withTurn); when
 * another process holds it, or a git journal commits each write under it, the PATCH holds it
 * throughout. The index is updated before the turn ends, so the next GET anywhere in this process
 * sees the change; the watcher's later event for the same bytes changes nothing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Document } from 'yaml';
import { NetcfgError, type ErrorDetail } from '../errors.js';
import { NEEDS_THE_LOCK, type FileLocks, type HeldLock } from './file-lock.js';
import type { GitIndexLock } from './git-index-lock.js';
import { FolderOnce, type FsSeam, type ReplaceOutcome, type Replaced } from './fs-seam.js';
import { giveGoAhead, newGoAhead } from './go-ahead.js';
import { EXTENSIONS, relativePathOf, type NetworkId } from './network-id.js';
import { etagOf, parseNetworkData, parseYaml, type FileProblem, type ParseOutcome, type ParsedYaml } from './network-file.js';
import type { NetworkRecord } from './network-record.js';
import { ParseCache } from './parse-cache.js';
import { isGone, servedPath } from './served-file.js';
import type { NetworkIndex } from './network-index.js';
import { TEMP_DIR, tempPathFor } from './temp-files.js';
import { intendedData, rewriteTopLevel, spliceTopLevel } from './yaml-edit.js';
import type { UrlPolicy } from './url-rules.js';

export interface UpdateRequest {
  id: NetworkId;
  /** Top-level fields to replace, already validated against update-network.schema.json. */
  changes: Record<string, unknown>;
  /** The If-Match header as sent, if any. */
  ifMatch?: string | undefined;
}

/** What a write's check found: the new text read back, and the record to serve if it may be written. */
interface Checked {
  outcome: ParseOutcome;
  read: ParsedYaml;
  /** Whether the text reads back as the data intended (always, when none was given). */
  asIntended: boolean;
  /** The go-ahead: the record of the new text when it may be written, null when not. */
  record: NetworkRecord | null;
}

type WriteOutcome = 'written' | 'changed' | 'locked' | 'stopped' | 'gone';

/** Reads of a file found gone (or half-written) while git works before a PATCH gives up, in a git work tree (see attempts()). */
const GIT_ATTEMPTS = 5;

/** errno codes that mean "the disk said no", answered 503 rather than 500. */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EACCES', 'EPERM', 'EMFILE', 'ENFILE', 'EBUSY', 'EAGAIN']);

/** Called under the lock after a write is durable (the git journal commits there). */
export type AfterWrite = (file: string, id: NetworkId, fields: string[]) => Promise<void>;

export class NetworkWriter {
  /** The last write the disk refused, until a write succeeds again (shown in readiness). */
  lastFailure: { at: Date; message: string; dir?: string } | null = null;
  afterWrite: AfterWrite | undefined;
  /** Told of each file renamed into place, with its stamp there (DiskSync.wrote). */
  wrote: ((rel: string, stamp: string, etag: string) => void) | undefined;
  /** git's lock on the work tree holding the folder, if it is in one: a write waits for it. */
  gitLock: GitIndexLock | null = null;
  /** `.tmp/`, where temp files are written before the rename (see temp-files.ts). */
  private readonly tempDir: FolderOnce;
  /** The parses of what this writer last wrote, so the next edit of those bytes skips one. */
  readonly parses = new ParseCache();

  constructor(
    private readonly root: string,
    private readonly index: NetworkIndex,
    private readonly policy: UrlPolicy,
    private readonly fs: FsSeam,
    private readonly locks: FileLocks,
  ) {
    this.tempDir = new FolderOnce(fs, path.join(root, TEMP_DIR));
  }

  /**
   * Resolves once the locks of every write so far are released (they are let go just after the
   * write), and what the writes left for after their answers is done (FsSeam.settled: lock folders
   * removed, replaced files closed).
   */
  async settled(): Promise<void> {
    await this.locks.settled();
    await this.fs.settled?.();
  }

  async update(request: UpdateRequest): Promise<NetworkRecord> {
    try {
      return await this.locked(request);
    } catch (err) {
      // The lock itself can be what the disk refused (EROFS, ENOSPC on its folder): show it too.
      if (err instanceof NetcfgError && err.code === 'STORAGE_UNAVAILABLE' && !this.lastFailure) this.lastFailure = { at: new Date(), message: err.message };
      throw err;
    }
  }

  private locked(request: UpdateRequest): Promise<NetworkRecord> {
    // The write takes the lock for its own steps (FileLocks.withTurn says how), but a git journal
    // commits each write under the lock (afterWrite): then it is held throughout.
    return this.locks.withTurn(request.id.id, (lock) => this.attempts(request, lock), { holdThroughout: this.afterWrite !== undefined });
  }

  private async attempts(request: UpdateRequest, lock: HeldLock): Promise<NetworkRecord | typeof NEEDS_THE_LOCK> {
    // A file swapped under us between read and rename (git checkout) makes us read again.
    for (let attempt = 1; ; attempt++) {
      const result = await this.attempt(request, lock);
      if (result === 'gone' || result === 'git-busy') {
        // Not there, or not whole, while a git command rewrites the tree: maybe only for the
        // moment a checkout replaces the file. The next attempt first waits for git's lock, so it
        // reads what git wrote; only a file still gone once git is idle is a 404.
        if (this.gitLock !== null && attempt < GIT_ATTEMPTS) continue;
        if (result === 'gone') throw new NetcfgError('NETWORK_NOT_FOUND', `Network ${request.id.id} does not exist (its file is gone); nothing was written.`);
        throw new NetcfgError('LOCK_TIMEOUT', `git kept rewriting ${request.id.id}'s file while it was being read; nothing was written, retry the request.`);
      }
      if (result !== 'moved') return result;
      // Changed since it was read: without the lock held, most likely by another process's
      // write. Read again holding it, so that process cannot win every round.
      if (lock.folder !== null) return NEEDS_THE_LOCK;
      if (attempt >= 3) {
        throw new NetcfgError('PRECONDITION_FAILED', `${request.id.id} kept changing on disk while it was being written; read it again and retry.`);
      }
    }
  }

  private async attempt(request: UpdateRequest, lock: HeldLock): Promise<NetworkRecord | 'moved' | 'gone' | 'git-busy' | typeof NEEDS_THE_LOCK> {
    const { id } = request;
    await this.gitLock?.whenFree(this.locks.maxWaitMs);
    const found = await this.readCurrent(id);
    if (found === null) return 'gone';
    const { rel, abs, stat, bytes } = found;
    const etag = etagOf(bytes);
    if (request.ifMatch !== undefined && !ifMatchAccepts(request.ifMatch, etag)) {
      throw new NetcfgError('PRECONDITION_FAILED', `${id.id} has changed since the ETag in If-Match was read; GET it again and retry with the new ETag.`, {
        headers: { ETag: etag },
      });
    }
    const text = bytes.toString('utf8');
    const parsed = this.parses.get(etag) ?? parseYaml(text);
    const { doc, problems } = parsed;
    // git writes a file in place after creating it: read while a checkout runs, it may be half there.
    if (problems.length > 0) {
      if (await this.gitRewriting(id, bytes)) return 'git-busy';
      throw new NetcfgError('FILE_INVALID', `${rel} is not valid YAML, so it cannot be edited safely; fix the file in git first.`, { details: detailsOf(rel, problems) });
    }
    // Only what the read path serves is edited: the current version must be a valid network
    // (the served record's bytes are; anything else is checked as the loader would).
    const served = this.index.get(id.id);
    let currentRecord = served?.etag === etag && served.path === rel ? served : null;
    if (currentRecord === null) {
      const { outcome } = parseNetworkData(text, id, rel, this.policy, parsed);
      if (!outcome.ok) {
        if (await this.gitRewriting(id, bytes)) return 'git-busy';
        throw new NetcfgError('FILE_INVALID', `${rel} is not a valid network file, so it is not served and cannot be edited; fix the file in git first.`, { details: detailsOf(rel, outcome.problems) });
      }
      currentRecord = outcome.record;
    }
    const current = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
    const changed = Object.entries(request.changes).filter(([key, value]) => !isDeepStrictEqual(current[key], value));
    if (changed.length === 0) {
      if (this.lastFailure) await this.heal(path.dirname(abs));
      this.index.put(currentRecord);
      return currentRecord;
    }
    const intended = intendedData(current, changed);
    const write = (next: string) => this.writeChecked(request, rel, abs, stat.mode & 0o7777, bytes, lock, next, intended);
    const spliced = spliceTopLevel(text, doc, changed);
    let result = spliced === null ? null : await write(spliced);
    // Not spliceable, or the splice did not read back as intended: edit through yaml's Document.
    if (result === null || !result.checked.asIntended) result = await write(rewritten(rel, doc, changed));
    const { written, checked } = result;
    if (!checked.outcome.ok) throw wouldBeInvalid(rel, checked.outcome.problems);
    // A YAML anchor on a replaced value that another field uses: either edit would change that field too.
    if (!checked.asIntended) throw sharedAnchor(rel, changed);
    if (written === 'locked') return NEEDS_THE_LOCK;
    if (written === 'gone') return 'gone';
    // Changed under us since it was read, or the go-ahead came too late (nothing written): again.
    if (written !== 'written') return 'moved';
    const { record } = checked.outcome;
    this.parses.set(record.etag, checked.read);
    this.index.put(record);
    await this.afterWrite?.(abs, request.id, changed.map(([key]) => key));
    return record;
  }

  /**
   * Writes `next` and, while the disk writes it, reads it back: the check that it is a valid
   * network (and, with `intended`, that it reads as that data) is the write's go-ahead, which its
   * rename waits for (go-ahead.ts). Nothing is written when the check fails.
   */
  private async writeChecked(request: UpdateRequest, rel: string, abs: string, mode: number, read: Buffer, lock: HeldLock, next: string, intended: Record<string, unknown>) {
    const check = (): Checked => {
      const { outcome, data, parsed } = parseNetworkData(next, request.id, rel, this.policy);
      const asIntended = isDeepStrictEqual(data, intended);
      return { outcome, read: parsed, asIntended, record: asIntended && outcome.ok ? outcome.record : null };
    };
    // Once renamed, the new file is what is on disk: serve it, even if the folder sync then fails.
    const renamed = (record: NetworkRecord, stamp: string | undefined): void => {
      this.index.put(record);
      if (stamp !== undefined) this.wrote?.(rel, stamp, record.etag);
    };
    return this.writeAtomic(abs, next, mode, read, lock, check, renamed);
  }

  /**
   * Whether invalid bytes just read may be git's half-written file: a git command holds its lock
   * now, or the file no longer holds those bytes (git finished and let go in between).
   */
  private async gitRewriting(id: NetworkId, read: Buffer): Promise<boolean> {
    if (this.gitLock === null) return false;
    if (this.gitLock.heldByOther()) return true;
    const now = await this.readCurrent(id).catch(() => null);
    return now === null || !now.bytes.equals(read);
  }

  /**
   * The network's file as it is now: its path with every link resolved (the write goes there, so
   * a link stays a link), its mode and bytes; null when neither `.yaml` nor `.yml` is there.
   * What the read path would not serve is refused before a byte is read (served-file.ts).
   */
  private async readCurrent(id: NetworkId) {
    for (const ext of EXTENSIONS) {
      const rel = relativePathOf(id, ext);
      try {
        const abs = await servedPath(this.root, rel);
        if (abs === null) continue;
        const stat = await this.fs.stat(abs);
        const bytes = await this.fs.readFile(abs, rel);
        return { rel, abs, stat, bytes };
      } catch (err) {
        if (isGone(err)) continue;
        throw this.storageError(err, `read ${rel}`);
      }
    }
    return null;
  }

  /**
   * Temp file + fsync, then rename + folder fsync, holding `lock` (or taking its folder for these
   * steps), the rename waiting for `check`'s go-ahead: `check` runs on this thread while the disk
   * thread writes the temp file. 'stopped' when the check said no (or its word came too late);
   * 'changed' when the file changed under us since it was read (the caller reads it again),
   * 'locked' when another process held the lock's folder (nothing was written); a file deleted
   * meanwhile is a 404, not resurrected (except by a deletion inside the microseconds between the
   * last check and the rename: see RELIABILITY.md).
   */
  private async writeAtomic(abs: string, text: string, mode: number, read: Buffer, lock: HeldLock, check: () => Checked, renamed: (record: NetworkRecord, stamp: string | undefined) => void): Promise<{ written: WriteOutcome; checked: Checked }> {
    const dir = path.dirname(abs);
    let tmp = await this.tempFor(abs);
    const goAhead = newGoAhead();
    const place = async (): Promise<Replaced> => {
      // The lock is checked as the write leaves, not between its fsync and its rename: the
      // check was never atomic with the rename (proper-lockfile calls a lock compromised once
      // it went unrefreshed for staleMs, 5 s), and this way the temp file and the rename go to
      // a disk thread as one message, one hand-off per PATCH instead of two (bench/README.md).
      const lost = lock.compromised;
      if (lost) throw new NetcfgError('LOCK_TIMEOUT', `The write lock was lost (${lost.message}); nothing was written, retry the request.`);
      // Renamed only if the file still holds the bytes read and no git command has started
      // meanwhile (see fs-seam.ts and RELIABILITY.md), then the folder synced; else read again.
      return this.fs.writeAndReplace(tmp, text, mode, abs, read, this.gitLock?.fileToCheck() ?? null, lock.folder, goAhead);
    };
    const placing = place(); // sent: the disk writes while this thread checks
    // Nothing is to be written, whatever the disk ran into meanwhile: it stops, then its temp file can go.
    const stop = async (): Promise<void> => {
      giveGoAhead(goAhead, false);
      await placing.catch(() => undefined);
      await this.removeQuietly(tmp);
    };
    let checked: Checked;
    try {
      checked = check();
    } catch (err) {
      await stop();
      throw err;
    }
    const { record } = checked;
    if (record === null) {
      await stop();
      return { written: 'stopped', checked };
    }
    giveGoAhead(goAhead, true);
    let syncError: NodeJS.ErrnoException | undefined;
    try {
      let outcome: ReplaceOutcome;
      let stamp: string | undefined;
      try {
        ({ outcome, syncError, stamp } = await placing);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EXDEV') {
          // The family folder is another file system (a mount): write the temp file beside the file.
          await this.removeQuietly(tmp);
          tmp = tempPathFor(abs, dir);
        } else if (code === 'ENOENT' && !existsSync(path.dirname(tmp))) {
          // Someone removed .tmp/ (git clean -fdx): make it again.
          this.tempDir.forget();
          tmp = await this.tempFor(abs);
        } else {
          throw err;
        }
        ({ outcome, syncError, stamp } = await place()); // its go-ahead is given already
      }
      if (outcome === 'gone') {
        await this.removeQuietly(tmp);
        return { written: 'gone', checked };
      }
      if (outcome === 'locked') return { written: 'locked', checked }; // taken before the temp file: nothing was made
      if (outcome === 'changed' || outcome === 'stopped') {
        await this.removeQuietly(tmp);
        return { written: outcome, checked };
      }
      renamed(record, stamp);
    } catch (err) {
      await this.removeQuietly(tmp);
      throw this.storageError(err, `write ${path.relative(this.root, abs)}`);
    }
    if (syncError) {
      if (isGone(syncError)) throw gone();
      const code = syncError.code ?? 'EUNKNOWN';
      // The new file is in place but may not survive a power cut; say so rather than "unchanged".
      const message = `The new ${path.relative(this.root, abs)} was written but the disk refused to sync its folder (${code}); it may not survive a crash. Retry later.`;
      this.lastFailure = { at: new Date(), message, dir };
      throw new NetcfgError('STORAGE_UNAVAILABLE', message, { cause: syncError, headers: { ETag: record.etag } });
    }
    this.lastFailure = null;
    return { written: 'written', checked };
  }

  /** A temp path in `<config>/.tmp/`. */
  private async tempFor(abs: string): Promise<string> {
    try {
      await this.tempDir.ready();
    } catch (err) {
      throw this.storageError(err, `create ${TEMP_DIR}/`);
    }
    return tempPathFor(abs, this.tempDir.dir);
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
      throw this.storageError(err, `sync ${path.relative(this.root, dir) || '.'}`);
    }
  }

  private async removeQuietly(file: string): Promise<void> {
    await this.fs.unlink(file).catch(() => undefined);
  }

  private storageError(err: unknown, what: string): Error {
    if (err instanceof NetcfgError) return err;
    // The family folder went away (a git checkout): the network is gone.
    if (isGone(err)) return gone();
    const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    if (!STORAGE_CODES.has(code)) return err as Error;
    const message = `The disk refused to ${what} (${code}); the file is unchanged. Retry later.`;
    this.lastFailure = { at: new Date(), message };
    return new NetcfgError('STORAGE_UNAVAILABLE', message, { cause: err });
  }
}

/** A file's problems as error details: `path:line:column: message`. */
function detailsOf(rel: string, problems: FileProblem[]): ErrorDetail[] {
  return problems.map((p) => ({ pointer: '', message: `${rel}:${p.line}:${p.column}: ${p.message}` }));
}

function wouldBeInvalid(rel: string, problems: FileProblem[]): NetcfgError {
  return new NetcfgError('FILE_INVALID', `The change is valid on its own, but ${rel} would be invalid with it (see details); nothing was written.`, { details: detailsOf(rel, problems) });
}

/** The edit through yaml's Document; one it cannot print (an alias to an anchor the edit replaced) is refused. */
function rewritten(rel: string, doc: Document, changes: Array<[string, unknown]>): string {
  try {
    return rewriteTopLevel(doc, changes);
  } catch {
    throw sharedAnchor(rel, changes);
  }
}

function sharedAnchor(rel: string, changes: Array<[string, unknown]>): NetcfgError {
  const fields = changes.map(([key]) => key).join(', ');
  return new NetcfgError('FILE_INVALID', `${rel} cannot be edited without changing fields the request did not name (a YAML anchor on ${fields} is used elsewhere in the file); edit it in git.`);
}

function gone(): NetcfgError {
  return new NetcfgError('NETWORK_NOT_FOUND', 'The file of this network was deleted while it was being written; nothing was written.');
}

/** RFC 9110 If-Match: `*` or a list of strong ETags; weak ETags never match. */
export function ifMatchAccepts(header: string, etag: string): boolean {
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag;
  });
}
