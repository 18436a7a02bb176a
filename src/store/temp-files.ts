/**
 * Temp files of in-flight atomic writes: `.<file>.<pid>.<token><count>.tmp` (hex) in
 * `<config>/.tmp/`, renamed from there over the file. Not beside the file: chokidar re-reads a
 * whole family folder on every event in it, and a temp file there made four more events per write
 * (create, write, chmod, rename away) for one that matters (measured: a quarter of the watcher's
 * CPU per PATCH). The folder is a dot-folder, so the watcher and git ignore it. Where the family
 * folder is on another file system (EXDEV), the writer falls back to a temp file beside the file.
 * One left by a killed process is swept at start once it is old enough that no live writer (of
 * any replica) can own it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const TEMP = /^\..+\.\d+\.[0-9a-f]+\.tmp$/;
export const SWEEP_AFTER_MS = 60_000;

export const TEMP_DIR = '.tmp';

/**
 * Random once per process, then counted: the pid alone is not unique across replicas (each
 * container's server may be pid 1 on a shared volume), and randomBytes per write cost ~30 us of
 * the main thread per PATCH here (a getrandom call each time).
 */
const PROCESS_TOKEN = randomBytes(6).toString('hex');
let written = 0;

/** A temp path for `file` in `dir` (the config folder's `.tmp/`, or the file's own folder). */
export function tempPathFor(file: string, dir: string): string {
  written++;
  return path.join(dir, `.${path.basename(file)}.${process.pid}.${PROCESS_TOKEN}${written.toString(16)}.tmp`);
}

/** Removes leftover temp files older than `olderThanMs` (in `.tmp/` and the family folders); returns how many. */
export function sweepTempFiles(root: string, olderThanMs = SWEEP_AFTER_MS): number {
  let removed = 0;
  const cutoff = Date.now() - olderThanMs;
  for (const family of safeReaddir(root)) {
    if (family.startsWith('.') && family !== TEMP_DIR) continue;
    const dir = path.join(root, family);
    for (const name of safeReaddir(dir)) {
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

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
