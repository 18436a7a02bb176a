/**
 * What the config folder holds: its network files and the paths that are not networks, and the
 * stamp that tells whether a file changed since it was read. Synchronous calls: a listing is a
 * few readdirs, a stamp one stat.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isLink } from './config-folder.js';
import { NESTED_FOLDER, classifyPath, isInside, parseNetworkId, type NetworkId } from './layout.js';

/** Why a family folder that is a link out of the config folder is neither listed nor served: what it holds is not ours to name. */
export const FAMILY_OUTSIDE =
  'symbolic link to outside the config folder; netcfg neither lists, serves nor writes what it holds';

export interface FolderEntries {
  ids: Map<string, NetworkId>;
  /** Paths that are not networks, with why. */
  foreign: Map<string, string>;
}

/**
 * Every network and foreign path on disk, plus the ids and paths the index still knows of
 * (`known`), so that files deleted since are dropped. Used for the first load and to reconcile.
 * `root` is the folder's checked real path (config-folder.ts). A family folder that is a link out
 * of it is one foreign path, and its contents are never listed (an open route shows readiness).
 */
export function listFolder(
  root: string | null,
  known: { ids: Iterable<string>; problemPaths: Iterable<string> },
): FolderEntries {
  const ids = new Map<string, NetworkId>();
  const foreign = new Map<string, string>();
  if (root !== null) listDisk(root, ids, foreign);
  for (const id of known.ids) {
    const parsed = parseNetworkId(id);
    if (parsed && !ids.has(id)) ids.set(id, parsed);
  }
  for (const rel of known.problemPaths) {
    if (foreign.has(rel)) continue;
    const kind = classifyPath(rel);
    if (kind.kind === 'network') ids.set(kind.id.id, kind.id);
    else foreign.set(rel, kind.kind === 'foreign' ? kind.reason : 'not a network');
  }
  return { ids, foreign };
}

/** The networks and foreign paths in the folder `root` and its family folders. */
function listDisk(root: string, ids: Map<string, NetworkId>, foreign: Map<string, string>): void {
  const consider = (rel: string, isDir: boolean): void => {
    if (isDir) {
      if (rel.includes('/')) foreign.set(rel, NESTED_FOLDER);
      return;
    }
    const kind = classifyPath(rel);
    if (kind.kind === 'network') ids.set(kind.id.id, kind.id);
    else if (kind.kind === 'foreign') foreign.set(rel, kind.reason);
  };
  for (const top of readDir(root)) {
    if (top.name.startsWith('.')) continue;
    if (!isDirectory(root, top)) {
      consider(top.name, false);
      continue;
    }
    const familyDir = path.join(root, top.name);
    if (top.isSymbolicLink() && !linkStaysInside(root, familyDir)) {
      foreign.set(top.name, FAMILY_OUTSIDE);
      continue;
    }
    for (const entry of readDir(familyDir)) {
      if (!entry.name.startsWith('.')) consider(`${top.name}/${entry.name}`, isDirectory(familyDir, entry));
    }
  }
}

/**
 * inode:size:mtime:ctime of a path (following links), '' when nothing is there. Something that is
 * there but cannot be followed or looked into (a link that leads nowhere or loops, no permission)
 * gets a stamp too, the same at every look: else the watcher, seeing it "move" at each look, would
 * look again forever and never report it.
 */
export function stampOf(file: string): string {
  try {
    return stampOfStats(fs.statSync(file, { bigint: true }));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return `!${code}`;
    try {
      return `link:${stampOfStats(fs.lstatSync(file, { bigint: true }))}`;
    } catch {
      return '';
    }
  }
}

export function stampOfStats(st: fs.BigIntStats): string {
  return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
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

/** Whether `p` is a link that leads out of the folder whose real path is `realRoot` (a family folder linked out). */
export function linkLeadsOut(realRoot: string, p: string): boolean {
  return isLink(p) && !linkStaysInside(realRoot, p);
}

/** Whether the link `p` resolves to a place inside the folder whose real path is `realRoot`. */
export function linkStaysInside(realRoot: string, p: string): boolean {
  try {
    return isInside(realRoot, fs.realpathSync.native(p));
  } catch {
    return false;
  }
}

export function isDirectoryPath(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
