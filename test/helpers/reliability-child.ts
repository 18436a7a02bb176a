/**
 * Built servers (dist/src/main.js) for the reliability tests, each on a port the OS gives it (PORT=0), learnt from
 * its own "listening" line: a port chosen here first was, with several test processes at once (mocha --parallel,
 * a second suite), sometimes taken by another process's server in between, whose readiness then answered for ours
 * (a kill loop saw ECONNREFUSED once that other server stopped). Readiness is then probed over HTTP, as an
 * orchestrator would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { MAIN } from './child-server.js';

export interface Server {
  url: string;
  port: number;
  process: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process is gone. */
  exited: Promise<number | string>;
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

const running = new Set<ChildProcess>();
// A test that throws half-way must not leave servers behind on the machine.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Ports this test process has handed out. The OS may give the same free port to two probes that
 * run back to back (the kill loop runs two folders at once); both servers are then started on it,
 * one of them exits with EADDRINUSE, and its readiness poll was seen answered by the other folder's
 * server. A port is therefore handed out once per test process.
 */
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

/** GET /api/v1/ready answers 200. */
export function isReady(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/api/v1/ready`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.setTimeout(2000, () => req.destroy());
  });
}

/** The server on `env`, once it says where it listens; throws with its stderr when it exits first. */
async function launch(env: Record<string, string>, deadlineMs: number): Promise<Server> {
  const child = spawn(process.execPath, [MAIN], {
    // info: the "listening" line is the one this reads (the access lines are read and dropped).
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', INDEX_CACHE: 'off', ...env, LOG_LEVEL: 'info', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8000)));
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? 'unknown');
    });
  });
  const kill = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not listen within ${deadlineMs} ms: ${stderr}`)), deadlineMs);
    void exited.then((code) => reject(new Error(`exited (${code}) before it listened: ${stderr}`)));
    lines.on('line', (line) => {
      if (!line.includes('"listening"')) return;
      clearTimeout(timer);
      resolve(Number(new URL(String((JSON.parse(line) as { url: string }).url)).port));
    });
  }).catch(async (err: Error) => {
    await kill('SIGKILL');
    throw new Error(`server on ${env.CONFIG_DIR} ${err.message}`);
  });
  return { url: `http://127.0.0.1:${port}`, port, process: child, exited, stderr: () => stderr, kill };
}

/** Starts the built server on `env` and waits until it is ready. */
export async function startServer(env: Record<string, string>, deadlineMs = 20_000): Promise<Server> {
  const deadline = Date.now() + deadlineMs;
  const server = await launch(env, deadlineMs);
  let gone = false;
  void server.exited.then(() => (gone = true));
  while (!gone && Date.now() < deadline) {
    if (await isReady(server.url)) return server;
    await new Promise((r) => setTimeout(r, 20));
  }
  await server.kill('SIGKILL');
  throw new Error(
    `server on ${env.CONFIG_DIR} ${gone ? 'exited' : `not ready within ${deadlineMs} ms`}: ${server.stderr()}`,
  );
}
