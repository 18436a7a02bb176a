/**
 * The project root, found from this module's own location so that the same code works from
 * `src/` (tests run through tsx) and from `dist/src/` (the built server).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  while (true) {
    if (existsSync(path.join(dir, 'schemas', 'network.schema.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`netcfg: cannot find the schemas/ folder above ${start}`);
    dir = parent;
  }
}

export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
export const SCHEMAS_DIR = path.join(PROJECT_ROOT, 'schemas');
