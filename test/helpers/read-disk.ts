/**
 * Disk-side helpers for the read tests: what a fresh scan of a folder would serve (the truth the
 * watched index must settle to), the index as plain data, and writes made the slow way.
 */
import { closeSync, existsSync, openSync, readdirSync, readlinkSync, writeSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { Refresher } from '../../src/store/index/refresher.js';
import { NetworkIndex, type InvalidFile, type Page } from '../../src/store/index/network-index.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { ConfigFolder } from '../../src/store/files/config-folder.js';
import { OPEN_POLICY } from '../../src/store/validation/url-rules.js';

/** id -> ETag of every network an index (or a store) serves, in id order. */
export function servedEtags(source: { page(offset: number, limit: number): Page }): Map<string, string> {
  const page = source.page(0, Number.MAX_SAFE_INTEGER);
  return new Map(page.records.map((r) => [r.id, r.etag]));
}

/** What a brand-new index loaded from `root` serves, built without any watcher. */
export function freshScan(root: string): { etags: Map<string, string>; invalid: InvalidFile[] } {
  const index = new NetworkIndex();
  const refresher = new Refresher(new ConfigFolder(root), index, OPEN_POLICY);
  const { ids, foreign } = refresher.listEntries();
  for (const id of ids.values()) refresher.apply(refresher.observe(id));
  for (const [rel, reason] of foreign) refresher.refreshForeign(rel, reason);
  return { etags: servedEtags(index), invalid: index.invalidFiles() };
}

/** Paths listed in readiness' invalid_files. */
export function invalidPaths(store: NetworkStore): string[] {
  return [...new Set(store.readiness().components.index.invalid_files.map((f) => f.path))].sort();
}

/**
 * Overwrites a file in place in two write() calls with a pause between them, as a slow writer
 * (or one flushing a large buffer) does: open with 'w' truncates, so the file is first empty,
 * then holds `first`, then `first + rest`.
 */
export async function writeInTwoChunks(file: string, first: string, rest: string, pauseMs: number): Promise<void> {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, first);
    await delay(pauseMs);
    writeSync(fd, rest);
  } finally {
    closeSync(fd);
  }
}

/**
 * Files under `dir` this process holds open though they are deleted (replaced by a rename), from
 * /proc/self/fd: each keeps its inode, and its blocks, until closed. Null where there is no /proc.
 */
export function openDeletedFiles(dir: string): string[] | null {
  if (!existsSync('/proc/self/fd')) return null;
  const found: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // the fd of the listing itself, closed by now
    }
    if (target.startsWith(`${dir}/`) && target.endsWith(' (deleted)')) found.push(target);
  }
  return found;
}
