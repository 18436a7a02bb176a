/**
 * The built server as a child process, for the write-side process tests (two servers, SDK).
 * Unlike child-server.ts's startChild, which reads the port from the "listening" log line, this
 * picks a free port itself and waits for /api/v1/ready, as an orchestrator would; it runs with
 * LOG_LEVEL=warn. A child that fails to start is killed, so a failed start cannot keep mocha alive.
 */
import { spawn } from 'node:child_process';
import { MAIN, START_DEADLINE_MS, waitReady, type ChildServer } from './child-server.js';
import { freePort } from './reliability-child.js';

export async function startWriteChild(
  env: Record<string, string>,
  deadlineMs = START_DEADLINE_MS,
): Promise<ChildServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
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
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    const server: ChildServer = {
      url,
      process: child,
      logs: [],
      untilLog: () => Promise.reject(new Error('this child writes no log to read (its stdout is ignored)')),
      stderr: () => stderr,
      async stop(signal = 'SIGTERM') {
        if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
        child.kill(signal);
        return exited;
      },
    };
    const died = exited.then((code) => {
      throw new Error(`server exited with ${code} before it was ready: ${stderr}`);
    });
    try {
      await Promise.race([waitReady(url, deadlineMs), died]);
      died.catch(() => undefined); // it may exit later, at stop(): not an error then
      return server;
    } catch (err) {
      died.catch(() => undefined);
      lastError = err;
      await server.stop('SIGKILL');
    }
  }
  throw lastError;
}
