/**
 * What GIT_SYNC needs from the clone beyond single git commands: netcfg's own folders kept out of
 * `git status`, and a lock a killed git left cleared.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { LOCK_DIR, TEMP_DIR } from '../files/layout.js';
import type { WorkTree } from './work-tree.js';

/** netcfg's lock and temp folders never show in `git status` of the clone (its own exclude file, not a committed .gitignore). */
export async function excludeOwnFolders(workTree: WorkTree): Promise<void> {
  const exclude = path.join((await workTree.git(['rev-parse', '--absolute-git-dir'])).trim(), 'info', 'exclude');
  const wanted = [`**/${LOCK_DIR}/`, `**/${TEMP_DIR}/`, `.*.tmp`];
  const current = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
  const missing = wanted.filter((line) => !current.split('\n').includes(line));
  if (missing.length === 0) return;
  mkdirSync(path.dirname(exclude), { recursive: true });
  appendFileSync(
    exclude,
    `${current === '' || current.endsWith('\n') ? '' : '\n'}# netcfg's own folders (GIT_SYNC)\n${missing.join('\n')}\n`,
  );
}

/**
 * A git command killed along with netcfg (a container's processes all killed at once) leaves
 * `index.lock` behind, and every later git command in the clone would fail on it. The clone is
 * netcfg's own, so at start a lock nobody has touched for `staleMs` is removed; a younger one
 * (a git command of a killed netcfg still finishing) is waited for.
 */
export async function clearStaleIndexLock(file: string, staleMs: number): Promise<'none' | 'gone' | 'removed'> {
  for (let waited = false; ; waited = true) {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return waited ? 'gone' : 'none';
    if (Date.now() - stat.mtimeMs > staleMs) {
      rmSync(file, { force: true });
      return 'removed';
    }
    await delay(20);
  }
}
