/**
 * The built server (dist/src/main.js) as a child process on a free loopback port: the real thing,
 * for tests that kill it, run several on one folder, or drive it with the SDK.
 */
import { EventEmitter } from 'node:events';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PROJECT_ROOT } from '../../src/paths.js';

export interface ChildServer {
  url: string;
  process: ChildProcess;
  /** Every log line the server wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The first log line (already written, or to come) that `predicate` accepts; rejects after `deadlineMs` saying what was awaited. */
  untilLog(
    predicate: (line: Record<string, unknown>) => boolean,
    deadlineMs: number,
    what: string,
  ): Promise<Record<string, unknown>>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** What the server wrote to stderr so far. */
  stderr(): string;
}

export const MAIN = path.join(PROJECT_ROOT, 'dist', 'src', 'main.js');

/**
 * How long a start may take before it is a failure. A deadline for a hang, never waited out by a start that
 * works: loading the built server is about a second of CPU, which on two cores shared with a second suite and
 * other work has taken over 15 s of wall time.
 */
export const START_DEADLINE_MS = 45_000;

export async function startChild(
  env: Record<string, string>,
  options: { waitReady?: boolean; deadlineMs?: number; script?: string } = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, [options.script ?? MAIN], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', INDEX_CACHE: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const lines = new EventEmitter();
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadlineMs = options.deadlineMs ?? START_DEADLINE_MS;
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not listen within ${deadlineMs} ms: ${stderr}`)),
      deadlineMs,
    );
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        lines.emit('line', entry);
        if (entry.msg === 'listening') {
          clearTimeout(timer);
          resolve(String(entry.url));
        }
      } catch {
        // not JSON: ignore
      }
    });
  });
  let url: string;
  try {
    url = await listening;
  } catch (err) {
    child.kill('SIGKILL'); // never leave a half-started server behind (it would keep mocha alive)
    throw err;
  }
  const server: ChildServer = {
    url,
    process: child,
    logs,
    untilLog(predicate, deadlineMs, what) {
      const found = logs.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          lines.off('line', heard);
          reject(new Error(`${what}: not logged within ${deadlineMs} ms`));
        }, deadlineMs);
        const heard = (entry: Record<string, unknown>): void => {
          if (!predicate(entry)) return;
          clearTimeout(timer);
          lines.off('line', heard);
          resolve(entry);
        };
        lines.on('line', heard);
      });
    },
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
  if (options.waitReady !== false) {
    await waitReady(url, deadlineMs).catch(async (err: unknown) => {
      await server.stop('SIGKILL');
      throw err;
    });
  }
  return server;
}

/** Polls /api/v1/ready until 200 (a probe, like an orchestrator's), up to a deadline. */
export async function waitReady(url: string, deadlineMs = START_DEADLINE_MS): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/api/v1/ready`);
      if (res.status === 200) return;
    } catch {
      // not accepting yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${url} not ready within ${deadlineMs} ms`);
}
