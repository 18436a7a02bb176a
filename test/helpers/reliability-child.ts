/**
 * Built servers (dist/src/main.js) for the reliability tests, on a port chosen here rather than
 * read from the "listening" log line: the kill loop restarts a server fifty times and must not
 * depend on when the logger flushes. Readiness is probed over HTTP, as an orchestrator would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
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

function launch(env: Record<string, string>, port: number): Server {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      INDEX_CACHE: 'off',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
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
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    exited,
    stderr: () => stderr,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Starts the built server on `env` and waits until it is ready. A port taken between the probe
 * and the spawn makes the server exit at once; that is retried on another port.
 */
export async function startServer(env: Record<string, string>, deadlineMs = 20_000): Promise<Server> {
  for (let attempt = 1; ; attempt++) {
    const server = launch(env, await freePort());
    let gone = false;
    void server.exited.then(() => (gone = true));
    const deadline = Date.now() + deadlineMs;
    while (!gone && Date.now() < deadline) {
      if (await isReady(server.url)) return server;
      await new Promise((r) => setTimeout(r, 20));
    }
    if (!gone) {
      await server.kill('SIGKILL');
      throw new Error(`server on ${env.CONFIG_DIR} not ready within ${deadlineMs} ms: ${server.stderr()}`);
    }
    if (attempt === 3 || !/EADDRINUSE/.test(server.stderr())) {
      throw new Error(`server on ${env.CONFIG_DIR} exited before it was ready: ${server.stderr()}`);
    }
  }
}
