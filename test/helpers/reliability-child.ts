/**
 * Built servers (dist/src/main.js) for the reliability tests, each on a port the OS gives it (PORT=0), learnt from
 * its own "listening" line: a port chosen here first was, with several test processes at once (mocha --parallel,
 * a second suite), sometimes taken by another process's server in between, whose readiness then answered for ours
 * (a kill loop saw ECONNREFUSED once that other server stopped). Readiness is then probed over HTTP, as an
 * orchestrator would.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { startChild } from './child-server.js';

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
 * Ports this test process has handed out, for the helpers that must name a port before they start (a git daemon,
 * Prometheus, a writer child). The OS may give the same free port to two probes that run back to back; both would
 * then be started on it. A port is therefore handed out once per test process.
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

/** How a server says that the port it was given is another's (Node, Go's net package, git daemon). */
const PORT_TAKEN = /EADDRINUSE|address already in use|unable to allocate any listen sockets/i;

/**
 * `start` on a port freePort() found, again on another while the failure says the port was taken: between the
 * probe and the server's own bind, another process (a server given PORT=0, another test file's) may take it.
 */
export async function onFreePort<T>(
  start: (port: number) => Promise<T>,
  { attempts = 5, ports = freePort }: { attempts?: number; ports?: () => Promise<number> } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await ports();
    try {
      return await start(port);
    } catch (err) {
      if (attempt >= attempts || !PORT_TAKEN.test((err as Error).message)) throw err;
    }
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

/** The built server on `env`, once it says where it listens (startChild: port 0, its own "listening" line). */
async function launch(env: Record<string, string>, deadlineMs: number): Promise<Server> {
  const started = await startChild(env, { waitReady: false, deadlineMs }).catch((err: Error) => {
    throw new Error(`server on ${env.CONFIG_DIR}: ${err.message}`);
  });
  const child = started.process;
  running.add(child);
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  const exited = new Promise<number | string>((resolve) => {
    const done = (): void => {
      running.delete(child);
      resolve(child.exitCode ?? child.signalCode ?? 'unknown');
    };
    if (alive()) child.once('exit', done);
    else done();
  });
  return {
    url: started.url,
    port: Number(new URL(started.url).port),
    process: child,
    exited,
    stderr: () => started.stderr().slice(-8000),
    async kill(signal = 'SIGTERM') {
      if (alive()) child.kill(signal);
      return exited;
    },
  };
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
