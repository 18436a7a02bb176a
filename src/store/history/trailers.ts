/**
 * Commit trailers by key, for whoever signs its commits with one (the prober's self-healing does):
 * git's `%(trailers:key=...)` placeholders for a `git log --format`, their parse, and one `git log`
 * over a whole folder's history for tools that run without a store (`netcfg validate --probe`).
 * What a trailer means is its writer's business, not git's.
 */
import path from 'node:path';
import { LOCAL_TIMEOUT_MS, runGit } from '../git/git-process.js';

/** Each trailer's values, by key (only the keys asked; a key the commit lacks has none). */
export type Trailers = Record<string, string[]>;

const VALUES = '\x1d';
const FIELDS = '\x1f';
const COMMITS = '\x1e';

/** `git log --format` fields for `keys`' trailer values, one field each, separated by `%x1f`. */
export function trailerFormat(keys: readonly string[]): string {
  return keys.map((key) => `%(trailers:key=${key},valueonly,separator=%x1d)`).join('%x1f');
}

/** The fields trailerFormat() made, read back by key. */
export function parseTrailers(keys: readonly string[], fields: readonly string[]): Trailers {
  const trailers: Trailers = {};
  keys.forEach((key, i) => {
    trailers[key] = (fields[i] ?? '')
      .split(VALUES)
      .map((value) => value.trim())
      .filter((value) => value !== '');
  });
  return trailers;
}

/** One commit touching a file, with the trailers asked. */
export interface TrailedCommit {
  date: string;
  trailers: Trailers;
}

/**
 * Every commit under `dir` carrying one of `keys`' trailers, by the file it touched (its path from
 * `dir`, `/`-separated), newest first: one `git log`. Outside a git work tree, or when git cannot
 * answer, none.
 */
export async function trailersByFile(dir: string, keys: readonly string[]): Promise<Map<string, TrailedCommit[]>> {
  const byFile = new Map<string, TrailedCommit[]>();
  const format = `--format=%x1e%aI%x1f${trailerFormat(keys)}%x1f`;
  let log: string;
  try {
    log = await runGit({
      args: ['-C', dir, '-c', 'core.quotePath=false', 'log', '--relative', '--name-only', format, '--', '.'],
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      timeoutMs: LOCAL_TIMEOUT_MS,
      maxBytes: 64 * 1024 * 1024,
    });
  } catch {
    return byFile;
  }
  for (const entry of log.split(COMMITS)) {
    const fields = entry.split(FIELDS);
    if (fields.length < keys.length + 2) continue;
    const date = (fields[0] ?? '').trim();
    const trailers = parseTrailers(keys, fields.slice(1, keys.length + 1));
    if (!Object.values(trailers).some((values) => values.length > 0)) continue;
    const files = (fields[keys.length + 1] ?? '').split('\n').filter((line) => line.trim() !== '');
    for (const file of files) {
      const rel = file.split(path.sep).join('/');
      const commits = byFile.get(rel) ?? [];
      if (commits.length === 0) byFile.set(rel, commits);
      commits.push({ date, trailers });
    }
  }
  return byFile;
}
