/**
 * The layout of the config folder, in one place: network ids and the files they live in, and the
 * folders netcfg keeps for itself. `<family>:<name>` lives in `<family>/<name>.yaml` (or `.yml`):
 * a folder per family keeps file names portable (no colon) and reviews easy. Only ids matching
 * ID_PART can ever become a path, so no id can escape the config folder.
 */
import path from 'node:path';
import { NetcfgError } from '../../errors.js';

export const ID_PART = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const EXTENSIONS = ['.yaml', '.yml'] as const;
export type Extension = (typeof EXTENSIONS)[number];

/** Where writes put their temp files before the rename (a dot-folder: the watcher and git skip it). */
export const TEMP_DIR = '.tmp';
/** Where the cross-process write locks live (proper-lockfile's lock folders). */
export const LOCK_DIR = '.locks';

export interface NetworkId {
  id: string;
  family: string;
  name: string;
}

/** Parses `<family>:<name>`; null when either part is not a valid id part. */
export function parseNetworkId(id: string): NetworkId | null {
  const colon = id.indexOf(':');
  if (colon < 0) return null;
  const family = id.slice(0, colon);
  const name = id.slice(colon + 1);
  if (!ID_PART.test(family) || !ID_PART.test(name)) return null;
  return { id, family, name };
}

/** Parses `<family>:<name>`; INVALID_ID, saying what an id is, when it is not one. */
export function requireNetworkId(id: string): NetworkId {
  const parsed = parseNetworkId(id);
  if (parsed) return parsed;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is hidden
  const printable = id.replace(/[\u0000-\u001f\u007f]/g, '?');
  const shown = printable.length > 80 ? `${printable.slice(0, 77)}...` : printable;
  throw new NetcfgError(
    'INVALID_ID',
    `"${shown}" is not a network id; an id is <family>:<name>, each part lower-case letters, digits, "-" or "_" (e.g. evm:sepolia).`,
  );
}

/** Relative path (posix separators) of a network's file with the given extension. */
export function relativePathOf(id: NetworkId, ext: Extension): string {
  return `${id.family}/${id.name}${ext}`;
}

/** Both candidate files of a network, `.yaml` first (it wins when both exist). */
export function candidatesOf(id: NetworkId): Array<{ rel: string; ext: Extension }> {
  return EXTENSIONS.map((ext) => ({ rel: relativePathOf(id, ext), ext }));
}

/** The ids of one family, as a range of sorted ids: [from, to). */
export function familyRange(family: string): [string, string] {
  return [`${family}:`, `${family};`]; // ';' sorts right after ':'
}

/** The name of a network's lock in LOCK_DIR (no colon in file names). */
export function lockNameOf(id: NetworkId): string {
  return `${id.family}~${id.name}`;
}

export type PathKind =
  | { kind: 'network'; id: NetworkId; ext: Extension }
  /** Ours or git's: dot-files and dot-folders (temp files, `.locks/`, `.gitignore`). Never reported. */
  | { kind: 'hidden' }
  | { kind: 'foreign'; reason: string };

export const NESTED_FOLDER = 'folders inside a family folder are not read; put a network in <family>/<name>.yaml';

/**
 * Classifies a path relative to the config folder (posix or native separators). Anything that is
 * neither a network file nor hidden is "foreign": it is reported in readiness and never served.
 */
export function classifyPath(relative: string): PathKind {
  const parts = relative.split(/[\\/]+/).filter((p) => p !== '');
  if (parts.some((p) => p.startsWith('.'))) return { kind: 'hidden' };
  if (parts.length === 1) {
    return {
      kind: 'foreign',
      reason: 'files directly in the config folder are not read; put a network in <family>/<name>.yaml',
    };
  }
  if (parts.length > 2) return { kind: 'foreign', reason: NESTED_FOLDER };
  const [family, file] = parts as [string, string];
  const ext = path.extname(file) as Extension;
  if (!EXTENSIONS.includes(ext)) {
    return { kind: 'foreign', reason: 'not a network file: a network file ends in .yaml or .yml' };
  }
  const name = file.slice(0, -ext.length);
  if (!ID_PART.test(family)) {
    return {
      kind: 'foreign',
      reason:
        `family folder "${family}" is not a valid id part ` +
        `(lower-case letters, digits, "-" and "_", starting with a letter or digit, at most 63 characters)`,
    };
  }
  if (!ID_PART.test(name)) {
    return {
      kind: 'foreign',
      reason: `file name "${name}" is not a valid id part (lower-case letters, digits, "-" and "_", starting with a letter or digit, at most 63 characters)`,
    };
  }
  return { kind: 'network', id: { id: `${family}:${name}`, family, name }, ext };
}

/** Whether a path inside the config folder is hidden (ours or git's): the watcher ignores it. */
export function isHidden(relative: string): boolean {
  return relative.split(/[\\/]+/).some((part) => part.startsWith('.'));
}

/** Whether `real` (a path with every link resolved) lies inside the folder `realRoot` (resolved too). */
export function isInside(realRoot: string, real: string): boolean {
  return real.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep);
}
