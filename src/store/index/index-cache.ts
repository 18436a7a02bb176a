/**
 * The index cache: what the last run parsed, so a restart re-parses only the files that changed.
 * Parsing YAML is most of a start-up (10,000 files: ~1.2 s of ~2 s), and a restart usually
 * finds the files as they were. Each entry pairs a file's stamp (inode, size, mtime and ctime in
 * ns, from one lstat) with the record that was served from exactly those bytes; a file whose
 * stamp differs in any way is read and parsed as on a cold start. ctime cannot be set from user
 * space, so even an edit that keeps the size and restores the mtime is seen.
 *
 * The cache is only ever a shortcut: it is keyed by a fingerprint of everything that decides
 * what a file parses to (this code, the schemas, the URL policy), and a missing, foreign, stale
 * or corrupt cache file is simply not used. It is written with temp file + rename, not fsynced.
 *
 * Format: JSON lines. The first is {format, fingerprint}; each other is [path, stamp, etag, json],
 * and the written rpc_urls when the record keeps them (network-record.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { SCHEMAS_DIR } from '../../paths.js';
import { SerialQueue } from '../../serial-queue.js';
import { classifyPath } from '../files/layout.js';
import type { ParseOutcome } from '../validation/network-file.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import { jsonOf, recordOf, type NetworkRecord } from '../network-record.js';

const FORMAT = 2;
/** The modules whose code decides what a file parses to: a change to any of them is a new fingerprint. */
const PARSING_MODULES = [
  'validation/network-file',
  'validation/network-rules',
  'validation/url-rules',
  'validation/schemas',
  'files/layout',
  'files/folder-file',
  'network-record',
  'index/index-cache',
];

export interface CachedFile {
  stamp: string;
  outcome: ParseOutcome;
}

/** Where the cache of a config folder lives by default: the OS temp folder, never the repository. */
export function defaultCachePath(root: string): string {
  let real = root;
  try {
    real = fs.realpathSync(root);
  } catch {
    // not there yet: key by the path as given
  }
  return path.join(os.tmpdir(), `netcfg-index-${createHash('sha256').update(real).digest('hex').slice(0, 16)}.jsonl`);
}

export function fingerprintOf(policy: UrlPolicy): string {
  const hash = createHash('sha256').update(`format ${FORMAT}\n${JSON.stringify(policy)}\n`);
  const here = fileURLToPath(import.meta.url);
  const store = path.dirname(path.dirname(here));
  for (const name of PARSING_MODULES) hash.update(fs.readFileSync(path.join(store, `${name}${path.extname(here)}`)));
  for (const file of fs.readdirSync(SCHEMAS_DIR).sort()) hash.update(fs.readFileSync(path.join(SCHEMAS_DIR, file)));
  return hash.digest('base64url');
}

/**
 * The cached files by relative path, or null when there is no usable cache. The default place is
 * a shared temp folder, so a file another user could have written (not ours, writable by others,
 * or a symbolic link) is never trusted: it could make netcfg serve RPC URLs the files do not hold.
 */
export function readIndexCache(file: string, fingerprint: string): Map<string, CachedFile> | null {
  let text: string;
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      const st = fs.fstatSync(fd);
      const uid = process.getuid?.();
      if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return null;
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const lines = text.split('\n');
  try {
    const header = JSON.parse(lines[0] ?? '') as { format?: number; fingerprint?: string };
    if (header.format !== FORMAT || header.fingerprint !== fingerprint) return null;
    const files = new Map<string, CachedFile>();
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line === '') continue;
      const [rel, stamp, etag, json, written] = JSON.parse(line) as [
        string,
        string,
        string,
        string,
        string | undefined,
      ];
      const record = cachedRecord(rel, etag, json, written ?? undefined);
      if (record) files.set(rel, { stamp, outcome: { ok: true, record } });
    }
    return files;
  } catch {
    return null; // torn or foreign: a cold start it is
  }
}

function cachedRecord(rel: string, etag: string, json: string, written: string | undefined): NetworkRecord | null {
  const kind = classifyPath(rel);
  if (kind.kind !== 'network') return null;
  return recordOf(kind.id.id, rel, etag, json, written);
}

/**
 * Writes the cache of `entries` (records with the stamp of the file they were parsed from),
 * yielding to the event loop every thousand entries so a large index does not stall reads.
 */
export async function writeIndexCache(
  file: string,
  fingerprint: string,
  entries: Iterable<{ stamp: string; record: NetworkRecord }>,
): Promise<void> {
  const lines = [JSON.stringify({ format: FORMAT, fingerprint })];
  let n = 0;
  for (const { stamp, record } of entries) {
    // A network with secret references is parsed again at every start: its values come from the environment, which may have changed.
    if (record.secrets !== undefined) continue;
    lines.push(
      JSON.stringify([
        record.path,
        stamp,
        record.etag,
        jsonOf(record),
        ...(record.writtenRpcUrls === undefined ? [] : [record.writtenRpcUrls]),
      ]),
    );
    if (++n % 1000 === 0) await yieldToLoop();
  }
  // A fresh name, created exclusively (never through a link someone left in a shared temp folder).
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  try {
    await fs.promises.writeFile(tmp, `${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * One config folder's cache file: read once at the first load, written after it (off the path to
 * ready) and at shutdown when the index changed since. Failures never reach a client: the
 * cache is reported through `onError` and the server runs on without it.
 */
export class IndexCache {
  private fingerprint: string | null = null;
  private savedRevision = -1;
  private readonly saving = new SerialQueue();

  constructor(
    readonly file: string,
    private readonly policy: UrlPolicy,
    private readonly onError: (err: Error) => void,
  ) {}

  read(): Map<string, CachedFile> | null {
    try {
      this.fingerprint = fingerprintOf(this.policy);
    } catch (err) {
      this.onError(new Error(`index cache disabled: ${(err as Error).message}`));
      return null;
    }
    return readIndexCache(this.file, this.fingerprint);
  }

  /** Writes `entries` unless `revision` is what the file already holds; one write at a time. */
  save(revision: number, entries: () => Iterable<{ stamp: string; record: NetworkRecord }>): Promise<void> {
    return this.saving.run(async () => {
      if (this.fingerprint === null || revision === this.savedRevision) return;
      try {
        await writeIndexCache(this.file, this.fingerprint, entries());
        this.savedRevision = revision;
      } catch (err) {
        this.onError(new Error(`could not write the index cache ${this.file}: ${(err as Error).message}`));
      }
    });
  }
}
