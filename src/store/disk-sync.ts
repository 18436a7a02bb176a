/**
 * Brings the index in line with what is on disk, one network id (or one foreign path) at a time.
 * Work is split into observe (read the bytes and the stat they were read with) and apply, so the
 * watcher can check that a file held still between the two before it trusts the bytes.
 * All reads here are synchronous and small (a network is a few hundred bytes, capped at
 * MAX_FILE_BYTES): one refresh is never interleaved with another or with a PATCH's index update.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EXTENSIONS, isInside, relativePathOf, type Extension, type NetworkId } from './network-id.js';
import { MAX_FILE_BYTES, etagOf, parseNetworkFile, type FileProblem, type ParseOutcome } from './network-file.js';
import type { NetworkRecord } from './network-record.js';
import { isGone } from './served-file.js';
import { READ, READ_NOT_A_LINK, readText } from './read-text.js';
import { isDirectoryPath, listFolder, stampOf, stampOfStats, type FolderTargets, type Listing } from './folder-listing.js';
import type { InvalidFile, NetworkIndex } from './network-index.js';
import type { UrlPolicy } from './url-rules.js';

interface FileLook {
  rel: string;
  ext: Extension;
  /** Identity of what was read: inode, size, mtime and ctime in ns; '' when absent. */
  stamp: string;
  text?: string;
  /** Why the file cannot be read as a network at all (too big, symlink out of the folder...). */
  unreadable?: string;
  /** The parse of `text`, when it was done elsewhere (a load worker); `text` is then dropped. */
  parsed?: ParseOutcome;
}

export interface Observation {
  id: NetworkId;
  files: FileLook[];
}

export class DiskSync {
  /** The stamp of each file as last applied, so a reconcile can skip files that did not change. */
  private readonly applied = new Map<string, string>();
  /** The stamp of the bytes each served record was parsed from (what the index cache may keep). */
  private readonly served = new Map<string, { stamp: string; etag: string }>();
  /** Files this process's writer renamed into place (wrote), until the watcher applies them again. */
  private readonly written = new Set<string>();
  constructor(
    readonly root: string,
    private readonly index: NetworkIndex,
    private readonly policy: UrlPolicy,
  ) {}

  /** Reads both candidate files of a network (those `listing` saw, when given). */
  observe(id: NetworkId, listing?: Listing): Observation {
    return { id, files: EXTENSIONS.map((ext) => this.look(relativePathOf(id, ext), ext, listing)) };
  }

  /**
   * observe() from the index cache alone: the observation when every file of `id` the listing
   * saw is unchanged since the cache was written, else null (nothing is read).
   */
  observeCached(id: NetworkId, listing: Listing): Observation | null {
    const files: FileLook[] = [];
    for (const ext of EXTENSIONS) {
      const look = this.look(relativePathOf(id, ext), ext, listing, true);
      if (look === null) return null;
      files.push(look);
    }
    return { id, files };
  }

  /** observe(), with the served file already parsed: what a load worker sends back. */
  observeParsed(id: NetworkId, listing?: Listing): Observation {
    const obs = this.observe(id, listing);
    const source = obs.files.find((f) => f.stamp !== '');
    if (source?.text !== undefined && source.unreadable === undefined) {
      source.parsed = parseNetworkFile(source.text, id, source.rel, this.policy);
    }
    for (const f of obs.files) delete f.text;
    return obs;
  }

  /** True when no candidate file changed since `obs` was taken. */
  unchanged(obs: Observation): boolean {
    return obs.files.every((f) => stampOf(this.abs(f.rel)) === f.stamp);
  }

  /** True when a file of `id` is not as it was when last applied (a cheap stat, no read). */
  changedSinceApplied(id: NetworkId): boolean {
    return EXTENSIONS.some((ext) => {
      const rel = relativePathOf(id, ext);
      return stampOf(this.abs(rel)) !== (this.applied.get(rel) ?? '');
    });
  }

  /**
   * The writer renamed a file into place, its record is in the index already, and `stamp` is the
   * file's stamp just after the rename: applied, as the watcher would once it had read it back.
   */
  wrote(rel: string, stamp: string, etag: string): void {
    this.applied.set(rel, stamp);
    this.served.set(rel, { stamp, etag });
    this.written.add(rel);
    this.index.clearProblems(rel);
  }

  /**
   * True when the files of `id` are as this process's writer left them: the one it wrote has the
   * stamp of that write, any other is as applied. The watcher's event for the write then needs no
   * read (it was the main thread's largest cost of a PATCH's echo).
   */
  asWritten(id: NetworkId): boolean {
    // Only wrote() and apply() set `applied`, and apply() forgets `written`: a file still in
    // `written` is applied with the stamp of that write.
    return EXTENSIONS.some((ext) => this.written.has(relativePathOf(id, ext))) && !this.changedSinceApplied(id);
  }

  /** Serves the observed state: `.yaml` wins over `.yml`; a bad file keeps the last good version. */
  apply(obs: Observation): void {
    for (const f of obs.files) {
      this.written.delete(f.rel);
      if (f.stamp !== '') this.applied.set(f.rel, f.stamp);
      else {
        this.applied.delete(f.rel);
        this.served.delete(f.rel);
      }
    }
    const present = obs.files.filter((f) => f.stamp !== '');
    for (const f of obs.files) if (f.stamp === '') this.index.clearProblems(f.rel);
    const [source, ...duplicates] = present;
    for (const dup of duplicates) {
      this.problem(dup.rel, [{ line: 1, column: 1, message: `duplicate of ${source?.rel}: the .yaml file is served and this one is ignored; delete one of them` }]);
    }
    if (!source) {
      this.index.remove(obs.id.id);
      return;
    }
    const text = source.text;
    if (source.unreadable !== undefined || (text === undefined && source.parsed === undefined)) {
      this.problem(source.rel, [{ line: 1, column: 1, message: source.unreadable ?? 'unreadable' }]);
      return;
    }
    const current = this.index.get(obs.id.id);
    if (current && current.path === source.rel && text !== undefined && current.etag === etagOf(text)) {
      this.served.set(source.rel, { stamp: source.stamp, etag: current.etag });
      this.index.clearProblems(source.rel);
      return;
    }
    const outcome = source.parsed ?? parseNetworkFile(text as string, obs.id, source.rel, this.policy);
    if (outcome.ok) {
      this.index.put(outcome.record);
      this.served.set(source.rel, { stamp: source.stamp, etag: outcome.record.etag });
      this.index.clearProblems(source.rel);
    } else {
      this.problem(source.rel, outcome.problems);
    }
  }

  /**
   * Every served record whose file is still the one it was parsed from: what the index cache may
   * keep. A record served as the last good version of a file that is now invalid is left out.
   */
  *servedFiles(): Generator<{ stamp: string; record: NetworkRecord }> {
    for (const id of this.index.ids()) {
      const record = this.index.get(id) as NetworkRecord;
      const served = this.served.get(record.path);
      if (served && served.etag === record.etag && this.applied.get(record.path) === served.stamp) yield { stamp: served.stamp, record };
    }
  }

  /** Reports a path that is not a network (or clears it once it is gone). */
  refreshForeign(rel: string, reason: string): void {
    // A folder at the top is a family folder, never a foreign file (git may leave one empty).
    if (stampOf(this.abs(rel)) === '' || (!rel.includes('/') && isDirectoryPath(this.abs(rel)))) this.index.clearProblems(rel);
    else this.problem(rel, [{ line: 1, column: 1, message: reason }]);
  }

  /** Every network and foreign path on disk, plus every id the index serves or reports (see listFolder). */
  listTargets(): FolderTargets {
    return listFolder(this.root, this.index);
  }

  /** Whether the config folder exists and is a readable directory. */
  rootProblem(): string | null {
    try {
      const st = fs.statSync(this.root);
      if (!st.isDirectory()) return `CONFIG_DIR ${this.root} is not a directory`;
      fs.accessSync(this.root, fs.constants.R_OK | fs.constants.X_OK);
      return null;
    } catch (err) {
      return `CONFIG_DIR ${this.root} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    }
  }

  abs(rel: string): string {
    return path.join(this.root, rel);
  }

  private problem(rel: string, problems: FileProblem[]): void {
    const list: InvalidFile[] = problems.map((p) => ({ path: rel, line: p.line, column: p.column, error: p.message }));
    this.index.setProblems(rel, list);
  }

  private look(rel: string, ext: Extension, listing: Listing | undefined, cacheOnly: true): FileLook | null;
  private look(rel: string, ext: Extension, listing?: Listing): FileLook;
  private look(rel: string, ext: Extension, listing?: Listing, cacheOnly = false): FileLook | null {
    if (listing && !listing.files.has(rel)) return { rel, ext, stamp: '' };
    const file = this.abs(rel);
    let fd: number;
    try {
      const opened = this.open(rel, ext, file, listing, cacheOnly);
      if (typeof opened !== 'number') return opened;
      fd = opened;
    } catch (err) {
      if (isGone(err)) return { rel, ext, stamp: '' };
      const code = (err as NodeJS.ErrnoException).code;
      return { rel, ext, stamp: stampOf(file) || 'unreadable', unreadable: `cannot be read: ${code ?? (err as Error).message}` };
    }
    try {
      const st = fs.fstatSync(fd, { bigint: true });
      const stamp = stampOfStats(st);
      if (!st.isFile()) return { rel, ext, stamp, unreadable: 'not a regular file' };
      if (st.size > BigInt(MAX_FILE_BYTES)) {
        return { rel, ext, stamp, unreadable: `the file is ${st.size} bytes; a network file may be at most ${MAX_FILE_BYTES} bytes` };
      }
      return { rel, ext, stamp, text: readText(fd, Number(st.size)) };
    } catch (err) {
      return { rel, ext, stamp: stampOf(file) || 'unreadable', unreadable: `cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * The descriptor to read `file` through, or the look itself when no read is needed (absent,
   * unchanged since the index cache, a link out of the folder). Without a cache to check nor a
   * linked family folder, the file is opened at once, refusing a link (O_NOFOLLOW: a link fails
   * with ELOOP and takes the lstat below): its stamp then comes from the open descriptor, one
   * stat where a look took two (a cold start of 10,000 files makes 10,000 looks).
   */
  private open(rel: string, ext: Extension, file: string, listing: Listing | undefined, cacheOnly: boolean): number | FileLook | null {
    // A link may be the file itself or its family folder; either may lead out of the folder.
    const familyLinked = listing ? listing.linkedFamilies.has(rel.slice(0, rel.indexOf('/'))) : fs.lstatSync(path.dirname(file)).isSymbolicLink();
    if (!familyLinked && !cacheOnly && !listing?.cache) {
      try {
        return fs.openSync(file, READ_NOT_A_LINK);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ELOOP') throw err;
      }
    }
    const link = fs.lstatSync(file, { throwIfNoEntry: false, bigint: true });
    if (link === undefined) return { rel, ext, stamp: '' };
    const linked = link.isSymbolicLink() || familyLinked;
    const cached = !linked && link.isFile() ? listing?.cache?.get(rel) : undefined;
    if (cached && cached.stamp === stampOfStats(link)) return { rel, ext, stamp: cached.stamp, parsed: cached.outcome };
    if (cacheOnly) return null;
    if (linked && !this.insideRoot(file)) {
      return { rel, ext, stamp: stampOf(file), unreadable: 'symbolic link (of the file or its family folder) to outside the config folder; netcfg does not follow it' };
    }
    return fs.openSync(file, READ);
  }

  private insideRoot(file: string): boolean {
    try {
      // Not cached: with git-sync the root is a symlink that is swapped to a new tree.
      return isInside(fs.realpathSync(this.root), fs.realpathSync(file));
    } catch {
      return false;
    }
  }
}
