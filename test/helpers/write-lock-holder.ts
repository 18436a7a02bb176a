/**
 * Another process holding a network's write lock, as a second netcfg replica would: a child node
 * process takes the proper-lockfile lock FileLocks uses (`<locksDir>/<family>~<name>.lock`) and
 * keeps it until told to release it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PROJECT_ROOT } from '../../src/paths.js';

export interface LockHolder {
  process: ChildProcess;
  /** Asks the child to release the lock; resolves once it has and exited. */
  release(): Promise<void>;
  kill(): Promise<void>;
}

// CommonJS on purpose: `node -e` runs it without a loader, and require finds proper-lockfile from cwd.
const SCRIPT = `
const lockfile = require('proper-lockfile');
const target = process.argv[1];
lockfile.lock(target, { lockfilePath: target + '.lock', realpath: false, stale: 10000 }).then((release) => {
  process.stdout.write('locked\\n');
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', () => release().then(() => { process.stdout.write('released\\n'); process.exit(0); }));
}, (err) => { process.stderr.write(String(err)); process.exit(3); });
`;

export async function holdLockInChild(locksDir: string, key: string, deadlineMs = 10_000): Promise<LockHolder> {
  const target = path.join(locksDir, key.replace(':', '~'));
  mkdirSync(locksDir, { recursive: true }); // as FileLocks does before locking
  const child = spawn(process.execPath, ['-e', SCRIPT, target], { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout! });
  const waitFor = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`lock holder did not say "${word}" within ${deadlineMs} ms: ${stderr}`)),
        deadlineMs,
      );
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`lock holder exited before "${word}": ${stderr}`));
      });
      lines.on('line', (line) => {
        if (line !== word) return;
        clearTimeout(timer);
        resolve();
      });
    });
  await waitFor('locked');
  return {
    process: child,
    async release() {
      const released = waitFor('released');
      child.stdin?.write('release\n');
      await released;
      await exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
