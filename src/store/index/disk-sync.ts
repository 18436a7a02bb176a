/**
 * Brings the index in line with what is on disk, one network id (or one foreign path) at a time.
 * Work is split into observe (read the bytes and the stamp they were read with) and apply, so the
 * watcher can check that a file held still between the two before it trusts the bytes.
 * Reads here are synchronous and small (a network is a few hundred bytes, at most MAX_FILE_BYTES):
 * one refresh is never interleaved with another or with a PATCH's index update.
 */
import fs from 'node:fs';
import path from 'node:path';
import { candidatesOf, type NetworkId } from '../files/layout.js';
import { isDirectoryPath, listFolder, stampOf, stampOfStats, type FolderTargets } from '../files/folder-listing.js';
import { readServedFileSync, type FileLook } from '../files/served-file.js';
import { etagOf, parseNetworkFile, type FileProblem, type ParseOutcome } from '../validation/network-file.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import type { CachedFile } from './index-cache.js';
import type { InvalidFile, NetworkIndex } from './network-index.js';
import type { NetworkRecord } from '../network-record.js';

/** A candidate file as observed: read, or (on a start with an index cache) its cached parse. */
interface Look extends FileLook {
  cached?: ParseOutcome;
}

export interface Observation {
  id: NetworkId;
  files: Look[];
}

/** What a first load knows once for every file: the index cache, and which family folders are links. */
export interface LoadContext {
  cache: Map<string, CachedFile> | null;
  linkedFamilies: Map<string, boolean>;
}

export class DiskSync {
  /** The stamp of each file as last applied, so a reconcile can skip files that did not change. */
  private readonly applied = new Map<string, string>();
  /** The stamp of the bytes each served record was parsed from (what the index cache may keep). */
  private readonly served = new Map<string, { stamp: string; etag: string }>();
  /** Ids with a write not yet in the remote (GIT_SYNC), and how many: served as they were until it is. */
  private readonly held = new Map<string, number>();

  constructor(
    readonly root: string,
    private readonly index: NetworkIndex,
    private readonly policy: UrlPolicy,
  ) {}

  /** Reads both candidate files of a network; in a first load, a file unchanged since the index cache has it is not read. */
  observe(id: NetworkId, load?: LoadContext): Observation {
    const linked = load ? this.familyLinked(id.family, load.linkedFamilies) : undefined;
    return { id, files: candidatesOf(id).map(({ rel }) => (linked === false && this.cachedLook(rel, load?.cache)) || readServedFileSync(this.root, rel, linked)) };
  }

  /** True when no candidate file changed since `obs` was taken. */
  unchanged(obs: Observation): boolean {
    return obs.files.every((f) => stampOf(this.abs(f.rel)) === f.stamp);
  }

  /** True when a file of `id` is not as it was when last applied (a cheap stat, no read). */
  changedSinceApplied(id: NetworkId): boolean {
    return candidatesOf(id).some(({ rel }) => stampOf(this.abs(rel)) !== (this.applied.get(rel) ?? ''));
  }

  /** Keeps serving `id` as it is now, whatever its file becomes, until as many `release`s. */
  hold(id: NetworkId): void {
    this.held.set(id.id, (this.held.get(id.id) ?? 0) + 1);
  }

  /** Lets go of one `hold`; after the last, serves what is on disk. */
  release(id: NetworkId): void {
    const left = (this.held.get(id.id) ?? 1) - 1;
    if (left > 0) return void this.held.set(id.id, left);
    this.held.delete(id.id);
    this.apply(this.observe(id));
  }

  /** Serves the observed state: `.yaml` wins over `.yml`; a bad file keeps the last good version. */
  apply(obs: Observation): void {
    if (this.held.has(obs.id.id)) return;
    for (const f of obs.files) {
      if (f.stamp !== '') this.applied.set(f.rel, f.stamp);
      else {
        this.applied.delete(f.rel);
        this.served.delete(f.rel);
        this.index.clearProblems(f.rel);
      }
    }
    const [source, ...duplicates] = obs.files.filter((f) => f.stamp !== '');
    for (const dup of duplicates) {
      this.problem(dup.rel, [{ line: 1, column: 1, message: `duplicate of ${source?.rel}: the .yaml file is served and this one is ignored; delete one of them` }]);
    }
    if (!source) {
      this.index.remove(obs.id.id);
      return;
    }
    if (source.unreadable !== undefined || (source.text === undefined && source.cached === undefined)) {
      this.problem(source.rel, [{ line: 1, column: 1, message: source.unreadable ?? 'unreadable' }]);
      return;
    }
    const outcome = source.cached ?? this.parse(obs.id, source.rel, source.text as string);
    if (!outcome.ok) {
      this.problem(source.rel, outcome.problems);
      return;
    }
    this.index.put(outcome.record);
    this.served.set(source.rel, { stamp: source.stamp, etag: outcome.record.etag });
    this.index.clearProblems(source.rel);
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
    return listFolder(this.root, { ids: this.index.ids(), problemPaths: this.index.problemPaths() });
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

  /** The same bytes as the record served: no parse (the watcher's echo of a PATCH, a touch). */
  private parse(id: NetworkId, rel: string, text: string): ParseOutcome {
    const current = this.index.get(id.id);
    if (current && current.path === rel && current.etag === etagOf(text)) return { ok: true, record: current };
    return parseNetworkFile(text, id, rel, this.policy);
  }

  /** Whether a family folder is a symbolic link, looked at once per load (undefined: not there). */
  private familyLinked(family: string, known: Map<string, boolean>): boolean | undefined {
    if (!known.has(family)) known.set(family, fs.lstatSync(this.abs(family), { throwIfNoEntry: false })?.isSymbolicLink() ?? false);
    return known.get(family);
  }

  /**
   * The cached parse of `rel` when the index cache holds it with the stamp the file has now (one
   * lstat). Never for a link (the caller makes sure its family folder is none): links are read and checked.
   */
  private cachedLook(rel: string, cache: Map<string, CachedFile> | null | undefined): Look | null {
    const entry = cache?.get(rel);
    if (!entry) return null;
    const st = fs.lstatSync(this.abs(rel), { bigint: true, throwIfNoEntry: false });
    if (!st?.isFile() || stampOfStats(st) !== entry.stamp) return null;
    return { rel, stamp: entry.stamp, cached: entry.outcome };
  }

  private problem(rel: string, problems: FileProblem[]): void {
    const list: InvalidFile[] = problems.map((p) => ({ path: rel, line: p.line, column: p.column, error: p.message }));
    this.index.setProblems(rel, list);
  }
}
