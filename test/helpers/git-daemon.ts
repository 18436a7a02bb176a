/**
 * A real git remote for the sync tests: a bare repository served by `git daemon` on a loopback
 * port (pushes allowed), started and stopped by the test itself, and clones of it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, watch, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from './git-repo.js';
import { onFreePort } from './reliability-child.js';

export interface GitRemote {
  /** git://127.0.0.1:<port>/networks.git */
  url: string;
  /** The folder holding the bare repository and the clones. */
  dir: string;
  /** Starts (again) serving on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
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
  const first = await onFreePort(async (port) => ({ port, child: await serveGitDaemon(base, port) }));
  const { port } = first;
  let daemon: ChildProcess | null = first.child;
  return {
    url: `git://127.0.0.1:${port}/networks.git`,
    dir,
    start: async () => {
      daemon = await serveGitDaemon(base, port);
    },
    stop: () =>
      new Promise((resolve) => {
        const child = daemon;
        daemon = null;
        if (!child || child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** `git daemon`'s arguments to serve the repositories under `base` on loopback `port`, pushes allowed (the bench's too). */
export function gitDaemonArgs(base: string, port: number): string[] {
  return [
    'daemon',
    '--verbose', // it says "Ready to rumble" once it listens
    '--export-all',
    '--enable=receive-pack',
    `--base-path=${base}`,
    '--listen=127.0.0.1',
    `--port=${port}`,
    '--reuseaddr',
    base,
  ];
}

/** A git daemon serving the repositories under `base` on `port`, once it says it is ready. */
export function serveGitDaemon(base: string, port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', gitDaemonArgs(base, port), { stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('Ready to rumble')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`git daemon on port ${port} exited (${code}): ${said}`)));
  });
}

/** A clone of `remote` in `<remote.dir>/<name>`, with an author for commits made in it. */
export function cloneOf(remote: GitRemote, name: string): string {
  const clone = path.join(remote.dir, name);
  git(remote.dir, 'clone', '-q', remote.url, clone);
  git(clone, 'config', 'user.name', name);
  git(clone, 'config', 'user.email', `${name}@example.com`);
  return clone;
}

/** The bare repository the daemon serves. */
export function bareOf(remote: GitRemote): string {
  return path.join(remote.dir, 'served', 'networks.git');
}

/** A file under config/networks/ as the remote's branch holds it now. */
export function remoteFile(remote: GitRemote, rel: string): string {
  return git(bareOf(remote), 'show', `main:config/networks/${rel}`);
}

/** The subjects of the remote branch's commits, newest first. */
export function remoteSubjects(remote: GitRemote): string[] {
  return git(bareOf(remote), 'log', '--format=%s', 'main').trim().split('\n');
}

export interface PushGate {
  /** Pushes the remote accepted so far (a post-receive hook counts them). */
  pushes(): number;
  /** Resolves once the first push waits in the remote's pre-receive hook. */
  waiting(deadlineMs?: number): Promise<void>;
  /** Lets the first push go on (it was waiting on a FIFO). */
  release(): void;
}

/**
 * Hooks in the remote: the first push waits in pre-receive, reading a FIFO, until `release()`
 * writes to it; every accepted push is counted.
 */
export function gateFirstPush(remote: GitRemote): PushGate {
  const hooks = path.join(bareOf(remote), 'hooks');
  const fifo = path.join(remote.dir, 'gate');
  const waitingFile = path.join(remote.dir, 'gate-waiting');
  const counted = path.join(remote.dir, 'pushes.log');
  execFileSync('mkfifo', [fifo]);
  writeFileSync(
    path.join(hooks, 'pre-receive'),
    `#!/bin/sh\ncat >/dev/null\nif [ -p '${fifo}' ]; then : > '${waitingFile}'; cat '${fifo}' >/dev/null; rm -f '${fifo}'; fi\n`,
    { mode: 0o755 },
  );
  writeFileSync(path.join(hooks, 'post-receive'), `#!/bin/sh\ncat >/dev/null\necho push >> '${counted}'\n`, {
    mode: 0o755,
  });
  return {
    pushes: () => (existsSync(counted) ? readFileSync(counted, 'utf8').trim().split('\n').length : 0),
    waiting: (deadlineMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        // The hook makes the file: watch the folder for it rather than look again and again.
        const watcher = watch(remote.dir, () => settle());
        const timer = setTimeout(
          () => settle(new Error(`no push reached the remote within ${deadlineMs} ms`)),
          deadlineMs,
        );
        const settle = (err?: Error): void => {
          if (!err && !existsSync(waitingFile)) return;
          watcher.close();
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        };
        settle();
      }),
    release: () => writeFileSync(fifo, 'go\n'),
  };
}
