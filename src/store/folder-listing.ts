/**
 * What the config folder holds: its network files and the paths that are not networks, the
 * family folders that are symbolic links, and the stamp that tells whether a file changed.
 * Read with synchronous calls: a listing is a few readdirs, and a stamp one stat.
 */
import fs from 'node:fs';
import path from 'node:path';
import { flatJoin } from './flat-string.js';
import type { CachedFile } from './index-cache.js';
import { classifyPath, type NetworkId } from './network-id.js';
import type { NetworkIndex } from './network-index.js';

/**
 * What one listing of the folder saw: the network files, and the family folders that are
 * symbolic links. A full load passes it to observe() so that each file costs the calls that
 * read it and no more: no lstat of a `.yml` that was not listed, none of its family folder.
 * A file that appears after the listing is caught by the watcher's reconcile.
 */
export interface Listing {
  files: Set<string>;
  linkedFamilies: Set<string>;
  /** What the last run parsed (index-cache.ts): a file with the same stamp is not read again. */
  cache?: Map<string, CachedFile> | null;
}

export interface FolderTargets {
  ids: Map<string, NetworkId>;
  foreign: Map<string, string>;
  listing: Listing;
}

/**
 * Every network and foreign path on disk, plus every id the index still serves (so deleted
 * files are dropped) and every path it reports. Used for the first load and to reconcile.
 */
export function listFolder(root: string, index: NetworkIndex): FolderTargets {
  const ids = new Map<string, NetworkId>();
  const foreign = new Map<string, string>();
  const listing: Listing = { files: new Set(), linkedFamilies: new Set() };
  const consider = (rel: string, isDir: boolean): void => {
    if (isDir) {
      const depth = rel.split('/').length;
      if (depth >= 2) foreign.set(rel, 'folders inside a family folder are not read; put a network in <family>/<name>.yaml');
      return;
    }
    const kind = classifyPath(rel);
    if (kind.kind === 'network') {
      ids.set(kind.id.id, kind.id);
      listing.files.add(rel);
    } else if (kind.kind === 'foreign') foreign.set(rel, kind.reason);
  };
  for (const top of readDir(root)) {
    if (top.name.startsWith('.')) continue;
    if (!isDirectory(root, top)) {
      consider(top.name, false);
      continue;
    }
    if (top.isSymbolicLink()) listing.linkedFamilies.add(top.name);
    const familyDir = path.join(root, top.name);
    for (const entry of readDir(familyDir)) {
      if (!entry.name.startsWith('.')) consider(`${top.name}/${entry.name}`, isDirectory(familyDir, entry));
    }
  }
  for (const id of index.ids()) {
    if (!ids.has(id)) {
      const [family = '', name = ''] = id.split(':');
      ids.set(id, { id, family, name });
    }
  }
  for (const rel of index.problemPaths()) {
    if (foreign.has(rel)) continue;
    const kind = classifyPath(rel);
    if (kind.kind === 'network') ids.set(kind.id.id, kind.id);
    else foreign.set(rel, kind.kind === 'foreign' ? kind.reason : 'not a network');
  }
  return { ids, foreign, listing };
}

/** inode:size:mtime:ctime of a path (following links), '' when it does not exist. */
export function stampOf(file: string): string {
  try {
    // A missing file is the common case (the .yml of every .yaml network, on every refresh):
    // answered without building an exception.
    const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
    return st === undefined ? '' : stampOfStats(st);
  } catch {
    return '';
  }
}

export function stampOfStats(st: fs.BigIntStats): string {
  // Kept per file for as long as it is served: flat, not a rope of seven (see flat-string.ts).
  return flatJoin(st.ino, ':', st.size, ':', st.mtimeNs, ':', st.ctimeNs);
}

function readDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isDirectory(parent: string, entry: fs.Dirent): boolean {
  if (entry.isDirectory()) return true;
  return entry.isSymbolicLink() && isDirectoryPath(path.join(parent, entry.name));
}

export function isDirectoryPath(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
