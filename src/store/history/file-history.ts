/**
 * The history of files in the work tree: their commits, newest first, with who made each change
 * (the `Netcfg-Actor` trailer, actor.ts) and the values of the trailers a caller asks for, from
 * one `git log`, and how many there are. work-tree.ts runs the commands.
 */
import path from 'node:path';
import { parseTrailers, trailerFormat, type Trailers } from './trailers.js';

export interface Commit {
  sha: string;
  author: string;
  email: string;
  date: string;
  message: string;
  /** Who made the change, from the commit's `Netcfg-Actor` trailer (actor.ts); null for a commit without one (made outside netcfg). */
  actor: string | null;
  /** The values of the trailers the caller asked for, by key (only when it asked). */
  trailers?: Trailers;
}

/** A page of commits, and how many there are in all. */
export interface CommitPage {
  commits: Commit[];
  total: number;
}

/** Who made a commit's change (actor.ts writes it). */
const ACTOR_TRAILER = 'Netcfg-Actor';

/** Commits of `files` (paths inside the work tree), newest first, with the trailers `keys`, and how many there are. */
export async function historyOf(
  workTree: { top: string; git(args: string[]): Promise<string> },
  files: string[],
  skip: number,
  limit: number,
  keys: readonly string[] = [],
): Promise<CommitPage> {
  const rels = files.map((f) => path.relative(workTree.top, f));
  const [log, count] = await Promise.all([
    workTree.git([
      'log',
      `--skip=${skip}`,
      `--max-count=${limit}`,
      `--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1f${trailerFormat([ACTOR_TRAILER, ...keys])}%x1e`,
      '--',
      ...rels,
    ]),
    workTree.git(['rev-list', '--count', 'HEAD', '--', ...rels]).catch(() => '0'),
  ]);
  const commits = log
    .split('\x1e')
    .map((r) => r.trim())
    .filter((r) => r !== '')
    .map((r) => {
      const [sha = '', author = '', email = '', date = '', message = '', ...fields] = r.split('\x1f');
      const { [ACTOR_TRAILER]: actor = [], ...trailers } = parseTrailers([ACTOR_TRAILER, ...keys], fields);
      return { sha, author, email, date, message, actor: actor[0] ?? null, ...(keys.length > 0 ? { trailers } : {}) };
    });
  return { commits, total: Number(count.trim()) || 0 };
}
