/**
 * A real git remote for the sync tests: a bare repository served by `git daemon` on a loopback
 * port (pushes allowed), started and stopped by the test itself, and clones of it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { git } from './git-repo.js';

export interface GitRemote {
  /** git://127.0.0.1:<port>/networks.git */
  url: string;
  /** The folder holding the bare repository and the clones. */
  dir: string;
  /** Starts (again) serving on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A bare repository on branch `main` whose one commit holds `files` under config/networks/, served
 * by a git daemon on loopback.
 */
export async function startGitRemote(files: Record<string, string>): Promise<GitRemote> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-remote-'));
  const seed = path.join(dir, 'seed');
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(seed, 'config', 'networks', rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  git(seed, 'init', '-q', '-b', 'main');
  git(seed, 'add', '-A');
  git(seed, '-c', 'user.name=seed', '-c', 'user.email=seed@example.com', 'commit', '-qm', 'seed');
  const base = path.join(dir, 'served');
  mkdirSync(base);
  git(dir, 'clone', '-q', '--bare', seed, path.join(base, 'networks.git'));
  const port = await freePort();
  let daemon: ChildProcess | null = null;
  const remote: GitRemote = {
    url: `git://127.0.0.1:${port}/networks.git`,
    dir,
    start: () =>
      new Promise((resolve, reject) => {
        const child = spawn('git', ['daemon', '--verbose', '--export-all', '--enable=receive-pack', `--base-path=${base}`, '--listen=127.0.0.1', `--port=${port}`, '--reuseaddr', base], { stdio: ['ignore', 'ignore', 'pipe'] });
        daemon = child;
        let said = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          if (said.includes('Ready to rumble')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`git daemon exited (${code}): ${said}`)));
      }),
    stop: () =>
      new Promise((resolve) => {
        const child = daemon;
        daemon = null;
        if (!child || child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
  await remote.start();
  return remote;
}

/** A clone of `remote` in `<remote.dir>/<name>`, with an author for commits made in it. */
export function cloneOf(remote: GitRemote, name: string): string {
  const clone = path.join(remote.dir, name);
  git(remote.dir, 'clone', '-q', remote.url, clone);
  git(clone, 'config', 'user.name', name);
  git(clone, 'config', 'user.email', `${name}@example.com`);
  return clone;
}
