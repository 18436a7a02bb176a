/**
 * git for the store tests: a synchronous `git -C <dir>`, and a folder made into a repository whose
 * one commit holds everything in it (a config folder "as merged").
 */
import { execFileSync } from 'node:child_process';

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' });
}

/** `git init` in `dir`, then one commit ("seed") of every file in it. */
export function initRepo(dir: string): void {
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=seed', '-c', 'user.email=seed@example.com', 'commit', '-qm', 'seed');
}
