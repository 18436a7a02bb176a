/**
 * Temp files of in-flight atomic writes: `.<file>.<pid>.<random>.tmp` in `<config>/.tmp/`,
 * renamed from there over the file. Not beside the file, so the watcher of the family folder
 * never sees them (and the folder is a dot-folder: git ignores it too). Where the family folder
 * is on another file system (EXDEV), the writer falls back to a temp file beside the file.
 * One left by a killed process is swept at start once it is old enough that no live writer (of
 * any replica) can own it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { TEMP_DIR } from './layout.js';

const TEMP = /^\..+\.\d+\.[0-9a-f]+\.tmp$/;
export const SWEEP_AFTER_MS = 60_000;

/** A temp path for `file` in `dir` (the config folder's `.tmp/`, or the file's own folder). */
export function tempPathFor(file: string, dir: string): string {
  // The pid alone is not unique across replicas (each container's server may be pid 1).
  return path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Removes leftover temp files older than `olderThanMs` (in `.tmp/` and the family folders); returns
 * how many. `realRoot` is the folder's checked real path; a family folder that is a link is not
 * entered (what it leads to is not netcfg's to clean).
 */
export function sweepTempFiles(realRoot: string, olderThanMs = SWEEP_AFTER_MS): number {
  let removed = 0;
  const cutoff = Date.now() - olderThanMs;
  for (const entry of safeReaddir(realRoot)) {
    const family = entry.name;
    if ((family.startsWith('.') && family !== TEMP_DIR) || !entry.isDirectory()) continue;
    const dir = path.join(realRoot, family);
    for (const { name } of safeReaddir(dir)) {
      if (!TEMP.test(name)) continue;
      const file = path.join(dir, name);
      try {
        if (fs.statSync(file).mtimeMs < cutoff) {
          fs.unlinkSync(file);
          removed++;
        }
      } catch {
        // gone already, or not ours to remove
      }
    }
  }
  return removed;
}

function safeReaddir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
