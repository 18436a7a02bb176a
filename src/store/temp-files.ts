/**
 * Temp files of in-flight atomic writes: `.<file>.<pid>.<random>.tmp` beside the file. They are
 * dot-files, so the watcher and git ignore them; one left by a killed process is swept at start
 * once it is old enough that no live writer (of any replica) can still own it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const TEMP = /^\..+\.\d+\.[0-9a-f]+\.tmp$/;
export const SWEEP_AFTER_MS = 60_000;

export function tempPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Removes leftover temp files older than `olderThanMs` in the family folders; returns how many. */
export function sweepTempFiles(root: string, olderThanMs = SWEEP_AFTER_MS): number {
  let removed = 0;
  const cutoff = Date.now() - olderThanMs;
  for (const family of safeReaddir(root)) {
    if (family.startsWith('.')) continue;
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
