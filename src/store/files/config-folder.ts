/**
 * Where the config folder really is, looked at before anything in it is read or written. In a git
 * clone the folders from the clone's top down to the config folder are the clone's: a teammate's
 * push can turn any of them into a symbolic link to anywhere, and following it would serve and
 * write files outside the clone (and push paths that leave the tree). So below the clone's top no
 * link is followed: such a folder is a problem for readiness, and nothing is read or written
 * through it until git makes it a folder again. Links above the top (a deploy's
 * `/srv/current -> releases/42`, git-sync's `current` worktree link) are the operator's and are
 * followed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NetcfgError } from '../../errors.js';

export type FolderState =
  | { ok: true; real: string }
  /** missing: not there (in a clone: git removed it with its last file); link: a link inside the clone; unusable: anything else. */
  | { ok: false; kind: 'missing' | 'link' | 'unusable'; problem: string };

export class ConfigFolder {
  /** The clone's top as the path to the folder names it, or null when the folder is not in a clone. */
  readonly cloneTop: string | null;

  /** `ownClone` (GIT_SYNC): the clone is netcfg's, so any link below its top is git's doing. */
  constructor(
    readonly root: string,
    readonly ownClone = false,
  ) {
    this.cloneTop = findCloneTop(root, ownClone);
  }

  /** The folder's real path when it may be used; else what is wrong with it. A few system calls. */
  check(): FolderState {
    try {
      if (this.cloneTop !== null) {
        for (const dir of foldersBelow(this.cloneTop, this.root)) {
          const st = lstatOrNull(dir);
          if (st === null) return this.missing('ENOENT');
          if (st.isSymbolicLink()) {
            const rel = path.relative(this.cloneTop, dir);
            return {
              ok: false,
              kind: 'link',
              problem:
                `${rel} in the clone is a symbolic link (a commit made it one); ` +
                `netcfg neither reads nor writes through it, and serves the last valid version of each network until git makes it a folder again`,
            };
          }
        }
      }
      const st = fs.statSync(this.root);
      if (!st.isDirectory())
        return { ok: false, kind: 'unusable', problem: `CONFIG_DIR ${this.root} is not a directory` };
      fs.accessSync(this.root, fs.constants.R_OK | fs.constants.X_OK);
      return { ok: true, real: fs.realpathSync.native(this.root) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      return code === 'ENOENT' || code === 'ENOTDIR'
        ? this.missing(code)
        : { ok: false, kind: 'unusable', problem: `CONFIG_DIR ${this.root} cannot be read: ${code}` };
    }
  }

  /** The folder's real path, for a write; refused (nothing is written) when it may not be used. */
  forWriting(): string {
    const state = this.check();
    if (state.ok) return state.real;
    if (state.kind === 'missing')
      throw new NetcfgError(
        'NETWORK_NOT_FOUND',
        `${state.problem}: there is no network to write; nothing was written.`,
      );
    throw new NetcfgError(
      state.kind === 'link' ? 'FILE_INVALID' : 'STORAGE_UNAVAILABLE',
      `${state.problem}; nothing was written.`,
    );
  }

  private missing(code: string): FolderState {
    return { ok: false, kind: 'missing', problem: `CONFIG_DIR ${this.root} cannot be read: ${code}` };
  }
}

/**
 * The clone holding `root`: the last folder on the way to it that holds `.git`. A link met below a
 * clone's top ends the search (it is the clone's own, and not followed), unless it leads to another
 * checkout's top (a deploy that swaps worktrees) and the clone is not netcfg's own.
 */
export function findCloneTop(root: string, ownClone: boolean): string | null {
  let top: string | null = null;
  const look = (p: string): fs.Stats | null => {
    try {
      return lstatOrNull(p);
    } catch {
      return null; // a folder we may not look into holds no clone of ours
    }
  };
  for (const dir of foldersOnTheWay(path.resolve(root))) {
    const linked = look(dir)?.isSymbolicLink() ?? false;
    const holdsGit = look(path.join(dir, '.git')) !== null;
    if (linked && top !== null && (ownClone || !holdsGit)) break;
    if (holdsGit) top = dir;
  }
  return top;
}

/** `/`, `/a`, `/a/b`, ... down to `dir` itself. */
function foldersOnTheWay(dir: string): string[] {
  const parts = dir.split(path.sep).filter((p) => p !== '');
  return [path.sep, ...parts.map((_, i) => path.sep + parts.slice(0, i + 1).join(path.sep))];
}

/** The folders below `top` down to `root`, `top` excluded. */
function foldersBelow(top: string, root: string): string[] {
  const rel = path.relative(top, path.resolve(root));
  if (rel === '') return [];
  const parts = rel.split(path.sep);
  return parts.map((_, i) => path.join(top, ...parts.slice(0, i + 1)));
}

/**
 * lstat, or null when nothing is there. Node 20's `throwIfNoEntry: false` still throws ENOTDIR
 * when a folder on the way is a file (a checkout of a branch where it is one): both mean "not there".
 */
export function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

/** Whether `p` is a symbolic link (false when it cannot be looked at). */
export function isLink(p: string): boolean {
  try {
    return lstatOrNull(p)?.isSymbolicLink() ?? false;
  } catch {
    return false;
  }
}
