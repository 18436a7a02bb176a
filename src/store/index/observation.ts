/**
 * The first half of a refresh (refresher.ts): a network's candidate files read, with the stamp
 * each was read with and the folder as it was, so the watcher can check that they held still
 * before the refresher applies what was read. Reads are synchronous and small (at most MAX_FILE_BYTES).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isLink, type ConfigFolder, type FolderState } from '../files/config-folder.js';
import { candidatesOf, type NetworkId } from '../files/layout.js';
import { linkLeadsOut, stampOf, stampOfStats } from '../files/folder-listing.js';
import { readFolderFileSync, type FileLook } from '../files/folder-file.js';
import type { ParseOutcome } from '../validation/network-file.js';
import type { CachedFile } from './index-cache.js';

/** A candidate file as observed: read, or (on a start with an index cache) its cached parse. */
export interface Look extends FileLook {
  cached?: ParseOutcome;
}

export interface Observation {
  id: NetworkId;
  files: Look[];
  /** The config folder as it was when the files were read. */
  folder: FolderState;
  /** The family folder is a link out of the config folder: nothing in it was read. */
  familyOutside?: boolean;
}

/** What a first load knows once for every file: the folder, the index cache, and which family folders are links. */
export interface LoadContext {
  folder: FolderState;
  cache: Map<string, CachedFile> | null;
  linkedFamilies: Map<string, boolean>;
}

/**
 * Reads both candidate files of a network; in a first load, a file unchanged since the index
 * cache has it is not read. Nothing is read through a config folder git made a link (its
 * networks keep their last good version), nor in a family folder that leads out of it.
 */
export function observe(config: ConfigFolder, id: NetworkId, load?: LoadContext): Observation {
  const folder = load?.folder ?? config.check();
  if (!folder.ok)
    return {
      id,
      folder,
      files: folder.kind === 'missing' ? candidatesOf(id).map(({ rel }) => ({ rel, stamp: '' })) : [],
    };
  const linked = load ? familyLinked(config, id.family, load.linkedFamilies) : undefined;
  if (linked !== false && familyOutside(config, folder.real, id.family))
    return { id, folder, files: [], familyOutside: true };
  return {
    id,
    folder,
    files: candidatesOf(id).map(
      ({ rel }) =>
        (linked === false && cachedLook(config, rel, load?.cache)) || readFolderFileSync(folder.real, rel, linked),
    ),
  };
}

/** True when neither the folder nor any candidate file changed since `obs` was taken. */
export function unchanged(config: ConfigFolder, obs: Observation): boolean {
  const now = config.check();
  if (now.ok !== obs.folder.ok || (now.ok && obs.folder.ok && now.real !== obs.folder.real)) return false;
  return obs.files.every((f) => stampOf(path.join(config.root, f.rel)) === f.stamp);
}

/** Whether a family folder is a symbolic link, looked at once per load. */
function familyLinked(config: ConfigFolder, family: string, known: Map<string, boolean>): boolean {
  if (!known.has(family)) known.set(family, isLink(path.join(config.root, family)));
  return known.get(family) as boolean;
}

/** Whether the family folder is a link that leads out of the folder whose real path is `realRoot`. */
export function familyOutside(config: ConfigFolder, realRoot: string, family: string): boolean {
  return linkLeadsOut(realRoot, path.join(config.root, family));
}

/**
 * The cached parse of `rel` when the index cache holds it with the stamp the file has now (one
 * lstat). Never for a link (the caller makes sure its family folder is none): links are read and checked.
 */
function cachedLook(config: ConfigFolder, rel: string, cache: Map<string, CachedFile> | null | undefined): Look | null {
  const entry = cache?.get(rel);
  if (!entry) return null;
  let st: fs.BigIntStats | undefined;
  try {
    st = fs.lstatSync(path.join(config.root, rel), { bigint: true });
  } catch {
    return null; // gone, or a folder on the way is a file now: read it the long way
  }
  if (!st.isFile() || stampOfStats(st) !== entry.stamp) return null;
  return { rel, stamp: entry.stamp, cached: entry.outcome };
}
