/**
 * A real git repository for the git-pull storm: `networks/` holds the config folder, and two
 * commits differ in 1,000 files (400 edits, 150 deletes, 250 adds, and a family folder of 200
 * files renamed). Edits change chain_id and the comment too, so a PATCH that wrote an old
 * version's fields over a new checkout would show.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface StormRepo {
  repo: string;
  /** The config folder inside the work tree. */
  config: string;
  a: string;
  b: string;
  /** Files changed between the two commits, as `git diff --name-status -M` counts them. */
  changed: number;
}

export async function git(repo: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-C', repo, ...args], {
    maxBuffer: 32 * 1024 * 1024,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
  return stdout;
}

/** `git init` on `branch` with a test identity, and a first commit of everything in `repo`. */
export async function commitAll(repo: string, branch: string, message: string): Promise<void> {
  await git(repo, 'init', '-q', '-b', branch);
  await git(repo, 'config', 'user.name', 'netcfg reliability test');
  await git(repo, 'config', 'user.email', 'reliability@netcfg.invalid');
  await git(repo, 'config', 'commit.gpgsign', 'false');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', message);
}

function network(version: string, rel: string, chainId: number): string {
  const host = rel.replace(/[/.]/g, '-');
  return `# ${version} ${rel}\nrpc_urls:\n  - url: https://${host}.${version.toLowerCase()}.example.com\n    weight: 50\nchain_id: ${chainId}\n`;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

export async function makeStormRepo(): Promise<StormRepo> {
  const repo = mkdtempSync(path.join(tmpdir(), 'netcfg-storm-'));
  const config = path.join(repo, 'networks');
  const put = (rel: string, text: string): void => {
    mkdirSync(path.dirname(path.join(config, rel)), { recursive: true });
    writeFileSync(path.join(config, rel), text);
  };
  for (let i = 0; i < 600; i++) put(`evm/e-${pad(i, 4)}.yaml`, network('A', `evm/e-${pad(i, 4)}`, 1000 + i));
  for (let i = 0; i < 200; i++) put(`old/o-${pad(i, 3)}.yaml`, network('A', `fam/o-${pad(i, 3)}`, 3000 + i));
  for (let i = 0; i < 100; i++) put(`solana/s-${pad(i, 3)}.yaml`, network('A', `solana/s-${pad(i, 3)}`, 4000 + i));
  // As shipped in config/networks/.gitignore: netcfg's locks and temp files are not content.
  writeFileSync(path.join(config, '.gitignore'), '.locks/\n.*.tmp\n');
  await commitAll(repo, 'main', 'A');
  const a = (await git(repo, 'rev-parse', 'HEAD')).trim();

  for (let i = 0; i < 400; i++) put(`evm/e-${pad(i, 4)}.yaml`, network('B', `evm/e-${pad(i, 4)}`, 5000 + i));
  for (let i = 400; i < 550; i++) rmSync(path.join(config, `evm/e-${pad(i, 4)}.yaml`));
  for (let i = 0; i < 250; i++) put(`evm/a-${pad(i, 3)}.yaml`, network('B', `evm/a-${pad(i, 3)}`, 6000 + i));
  renameSync(path.join(config, 'old'), path.join(config, 'new'));
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'B');
  const b = (await git(repo, 'rev-parse', 'HEAD')).trim();
  const changed = (await git(repo, 'diff', '--name-status', '-M', a, b)).trim().split('\n').length;
  await git(repo, 'checkout', '-q', '-f', a);
  return { repo, config, a, b, changed };
}
