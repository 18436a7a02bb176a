/**
 * The in-memory index every read is served from: valid networks by id, their ids in sorted order
 * for pages, the files that are currently invalid, and a revision that counts every change.
 * It knows nothing of files or HTTP; the store feeds it, readers only look.
 */
import { familyRange } from '../files/layout.js';
import type { NetworkRecord } from '../network-record.js';

export type ChangeKind = 'added' | 'modified' | 'deleted';

export interface IndexChange {
  kind: ChangeKind;
  id: string;
  /** ETag after the change; null when deleted. */
  etag: string | null;
  revision: number;
  /** Who made it (`token:<name>`, `system:<part>`; actor.ts); null for a change found on disk (git, an editor). */
  actor: string | null;
}

export interface InvalidFile {
  path: string;
  line: number;
  column: number;
  error: string;
  /** The variable a secret reference names that is not set (network-file.ts' FileProblem). */
  unset_secret?: string;
  /** The variable named by the secret reference the problem is about, unset or not allowed. */
  secret_ref?: string;
}

export interface Page {
  records: NetworkRecord[];
  total: number;
  revision: number;
}

export class NetworkIndex {
  private readonly records = new Map<string, NetworkRecord>();
  /** Sorted ids; while `unsorted`, ids are appended and sorted on the next read (bulk loads). */
  private sorted: string[] = [];
  private unsorted = false;
  private readonly problems = new Map<string, InvalidFile[]>();
  private rev = 0;
  private readonly listeners = new Set<(change: IndexChange) => void>();

  get revision(): number {
    return this.rev;
  }

  get size(): number {
    return this.records.size;
  }

  get(id: string): NetworkRecord | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  ids(): IterableIterator<string> {
    return this.records.keys();
  }

  /** Stores a record; returns the change, or null when the same bytes were already served. */
  put(record: NetworkRecord, actor: string | null = null): IndexChange | null {
    const previous = this.records.get(record.id);
    if (previous && previous.etag === record.etag && previous.path === record.path) return null;
    this.records.set(record.id, record);
    if (!previous) this.insertId(record.id);
    return this.emit(previous ? 'modified' : 'added', record.id, record.etag, actor);
  }

  remove(id: string): IndexChange | null {
    if (!this.records.delete(id)) return null;
    const at = this.unsorted ? this.sorted.indexOf(id) : lowerBound(this.sorted, id);
    if (this.sorted[at] === id) this.sorted.splice(at, 1);
    return this.emit('deleted', id, null, null);
  }

  /** Appends without sorting; the next read sorts once. For loading thousands of files. */
  beginBulk(): void {
    this.unsorted = true;
  }

  /** A page of records in id order, optionally of one family (a contiguous range of ids). */
  page(offset: number, limit: number, family?: string, keep?: (id: string) => boolean): Page {
    const ids = this.sortedIds();
    let from = 0;
    let to = ids.length;
    if (family !== undefined) {
      const [first, end] = familyRange(family);
      from = lowerBound(ids, first);
      to = lowerBound(ids, end);
    }
    const records: NetworkRecord[] = [];
    if (keep) {
      // A token's scope: every id of the range is looked at, so the total counts only what it may see.
      let total = 0;
      for (let i = from; i < to; i++) {
        if (!keep(ids[i] as string)) continue;
        if (total >= offset && records.length < limit)
          records.push(this.records.get(ids[i] as string) as NetworkRecord);
        total++;
      }
      return { records, total, revision: this.rev };
    }
    for (let i = from + offset; i < to && records.length < limit; i++) {
      records.push(this.records.get(ids[i] as string) as NetworkRecord);
    }
    return { records, total: to - from, revision: this.rev };
  }

  /** The value of every secret reference served, and the variable it came from (a PATCH may not write one out). */
  secretValues(): Map<string, string> {
    const values = new Map<string, string>();
    for (const record of this.records.values()) for (const s of record.secrets ?? []) values.set(s.url, s.name);
    return values;
  }

  setProblems(path: string, problems: InvalidFile[]): void {
    if (problems.length === 0) this.problems.delete(path);
    else this.problems.set(path, problems);
  }

  clearProblems(path: string): void {
    this.problems.delete(path);
  }

  hasProblems(path: string): boolean {
    return this.problems.has(path);
  }

  problemPaths(): string[] {
    return [...this.problems.keys()];
  }

  invalidFiles(): InvalidFile[] {
    return [...this.problems.values()]
      .flat()
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  }

  /** Listens to every change; returns the function that stops listening. */
  onChange(listener: (change: IndexChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private sortedIds(): string[] {
    if (this.unsorted) {
      this.sorted.sort();
      this.unsorted = false;
    }
    return this.sorted;
  }

  private insertId(id: string): void {
    if (this.unsorted) this.sorted.push(id);
    else this.sorted.splice(lowerBound(this.sorted, id), 0, id);
  }

  private emit(kind: ChangeKind, id: string, etag: string | null, actor: string | null): IndexChange {
    const change = { kind, id, etag, revision: ++this.rev, actor };
    for (const listener of this.listeners) listener(change);
    return change;
  }
}

/** First index whose id is >= key (ids compare by UTF-16 code units, like Array#sort). */
function lowerBound(ids: readonly string[], key: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ids[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
