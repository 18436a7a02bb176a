/**
 * Every process the bench starts goes through here, so that all of them are stopped: at the end of
 * their phase, on an error (finally blocks), on Ctrl-C, and, as a last resort, when the bench
 * itself exits. Each child writes its stdout to a log file in bench/.tmp/logs/ (never an unread
 * pipe, which would fill up and stall a server that logs every request).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TMP_DIR } from './fixtures.js';

export interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  logFile: string;
  /** When spawn() returned, from performance.now(). */
  spawnedAt: number;
  exited: Promise<number | null>;
  stderr(): string;
}

const running = new Set<Child>();
export const LOG_DIR = path.join(TMP_DIR, 'logs');

export function startProcess(name: string, command: string, args: string[], env: Record<string, string> = {}): Child {
  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = path.join(LOG_DIR, `${name}.log`);
  const out = openSync(logFile, 'w');
  const spawnedAt = performance.now();
  const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', out, 'pipe'] });
  closeSync(out); // the child holds its own copy of the descriptor
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < 20_000) stderr += d.toString();
  });
  if (child.pid === undefined) throw new Error(`could not start ${name} (${command})`);
  const entry: Child = {
    name,
    process: child,
    pid: child.pid,
    logFile,
    spawnedAt,
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    stderr: () => stderr,
  };
  running.add(entry);
  void entry.exited.then(() => running.delete(entry));
  return entry;
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stopProcess(child: Child, graceMs = 5000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/** Stops every running child except those in `keep`. */
export async function stopAll(keep: Child[] = []): Promise<void> {
  await Promise.all([...running].filter((c) => !keep.includes(c)).map((c) => stopProcess(c)));
}

/** Synchronous last resort (process 'exit' handlers cannot wait). */
export function killAllNow(): void {
  for (const c of running) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
}

export function isRunning(child: Child): boolean {
  return child.process.exitCode === null && child.process.signalCode === null;
}

/** A free TCP port on 127.0.0.1 (free when we looked; the child binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers `status`; returns performance.now() of that answer. */
export async function waitForStatus(
  child: Child,
  url: string,
  status = 200,
  deadlineMs = 60_000,
  everyMs = 10,
): Promise<number> {
  const deadline = performance.now() + deadlineMs;
  while (performance.now() < deadline) {
    if (!isRunning(child)) throw new Error(`${child.name} exited early: ${child.stderr()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === status) return performance.now();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${child.name}: ${url} did not answer ${status} within ${deadlineMs} ms; stderr: ${child.stderr()}`);
}

/** Resident set size of a process in MB, from /proc/<pid>/status (VmRSS is in kB). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) / 1024;
}

/**
 * Sets the CPU priority of every thread of `pid`. Linux keeps a nice value per thread, and
 * os.setPriority(pid) changes the main thread's alone: a server started at nice 19 and put back
 * with it kept its watcher thread, its file-system threads and V8's collector threads at 19.
 */
export function setPriorityAll(pid: number, priority: number): void {
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      os.setPriority(Number(tid), priority);
    } catch {
      // the thread ended meanwhile
    }
  }
}

/** CPU time (user + system, all threads) a process has used, in ms; clock ticks are 10 ms on Linux. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  return ticks * 10; // USER_HZ is 100 on every Linux build that matters
}

/**
 * Waits until every running child has been idle (under 5% of a core) for two seconds in a row, so
 * that a row is not measured while another server is still settling (a server on 100,000 files
 * reconciles with a stat per file and runs a large garbage collection for a minute after it is
 * ready). Returns how long it waited; gives up after `deadlineMs` and says so in the result.
 */
export async function waitIdle(deadlineMs = 90_000): Promise<{ waitedMs: number; busy: string[] }> {
  const started = performance.now();
  let quiet = 0;
  let last = new Map([...running].map((c) => [c, cpuMs(c.pid)]));
  while (performance.now() - started < deadlineMs) {
    await new Promise((r) => setTimeout(r, 500));
    const now = new Map([...running].map((c) => [c, cpuMs(c.pid)]));
    const busy = [...now].filter(([c, ms]) => ms - (last.get(c) ?? ms) > 25).map(([c]) => c.name);
    last = now;
    quiet = busy.length === 0 ? quiet + 1 : 0;
    if (quiet >= 4) return { waitedMs: performance.now() - started, busy: [] };
  }
  return { waitedMs: performance.now() - started, busy: [...running].map((c) => c.name) };
}

/** Stops every child when the bench is interrupted or exits, whatever the reason. */
export function installCleanup(): void {
  const onSignal = (signal: NodeJS.Signals): void => {
    process.stderr.write(`\nbench: ${signal}, stopping ${running.size} process(es)\n`);
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', killAllNow);
}
