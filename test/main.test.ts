/**
 * The built server as a process: it refuses to start when misconfigured (and says why), a
 * SIGTERM lets a request in flight finish, then exits 0, and a log reader that goes away stops
 * nothing.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../src/paths.js';
import { MAIN, startChild } from './helpers/child-server.js';
import { makeConfigDir, removeDir, standardFiles } from './helpers/fixtures.js';

function runToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('main (the server process)', () => {
  let root: string;
  beforeEach(() => (root = makeConfigDir(standardFiles())));
  afterEach(() => removeDir(root));

  it('refuses to start with a short API_KEY, saying why', async () => {
    const { code, stderr } = await runToExit({ CONFIG_DIR: root, API_KEY: 'too-short' });
    expect(code).to.equal(2);
    expect(stderr).to.include('API_KEY must be at least 32 characters');
  });

  it('refuses a non-loopback HOST without API_KEY', async () => {
    const { code, stderr } = await runToExit({ CONFIG_DIR: root, HOST: '0.0.0.0' });
    expect(code).to.equal(2);
    expect(stderr).to.include('not a loopback address');
  });

  it('warns when serving without API_KEY, never logs the key, and exits 0 on SIGTERM after finishing requests', async () => {
    const key = 'secret-key-'.padEnd(40, 'x');
    const open = await startChild({ CONFIG_DIR: root });
    expect(open.logs.some((l) => l.level === 40 && String(l.msg).includes('API_KEY is not set'))).to.equal(true);
    expect(await open.stop('SIGTERM')).to.equal(0);

    const server = await startChild({ CONFIG_DIR: root, API_KEY: key });
    const res = await fetch(`${server.url}/api/v1/networks`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).to.equal(200);
    // A request in flight when SIGTERM arrives still gets its answer: its headers and half its
    // body are sent, then the signal, then the rest of the body.
    const body = JSON.stringify({ rpc_urls: ['https://late.example.com'] });
    const { hostname, port } = new URL(server.url);
    const answered = new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          hostname,
          port,
          method: 'PATCH',
          path: '/api/v1/networks/evm:sepolia',
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
          },
        },
        (r) => {
          r.resume();
          r.on('end', () => resolve(r.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      req.on('socket', (socket) =>
        socket.once('connect', () => {
          setTimeout(() => {
            const exit = server.stop('SIGTERM');
            setTimeout(() => req.end(body.slice(10)), 100);
            void exit;
          }, 50);
        }),
      );
    });
    expect(await answered).to.equal(200);
    expect(await server.stop('SIGTERM')).to.equal(0);
    expect(server.logs.map((l) => l.msg)).to.include('stopped');
    expect(JSON.stringify(server.logs)).to.not.include(key);
    const access = server.logs.find((l) => l.msg === 'request');
    expect(access).to.include.keys('req_id', 'method', 'path', 'status', 'ms');
  });

  it('keeps serving when its log reader is gone (EPIPE), and still exits 0 on SIGTERM', async () => {
    const server = await startChild({ CONFIG_DIR: root });
    try {
      server.process.stdout?.destroy();
      // ~2,000 access lines: several full 64 KiB batches written into the closed pipe, and more
      // than a second of the every-100-ms flush.
      for (let i = 0; i < 2_000; i++) {
        const res = await fetch(`${server.url}/api/v1/networks/evm:sepolia`);
        expect(res.status).to.equal(200);
        await res.arrayBuffer();
      }
      expect(server.process.exitCode).to.equal(null);
      expect(await server.stop('SIGTERM')).to.equal(0);
    } finally {
      await server.stop('SIGKILL'); // a failed or timed-out case leaves no server behind (it kept a worker alive)
    }
  });

  // Issue 41: `node /srv/current/dist/src/main.js` exited 0 without serving when the path ran
  // through a link or held a space (import.meta.url compared with argv[1] as written).
  const invocations: Array<[string, (dir: string) => string]> = [
    [
      'through a symlinked release folder (/srv/current -> releases/42)',
      (dir) => {
        symlinkSync(PROJECT_ROOT, path.join(dir, 'current'));
        return path.join(dir, 'current', 'dist', 'src', 'main.js');
      },
    ],
    [
      'from a folder whose path holds a space',
      (dir) => {
        const release = path.join(dir, 'release 42');
        mkdirSync(release);
        cpSync(path.join(PROJECT_ROOT, 'dist'), path.join(release, 'dist'), { recursive: true });
        cpSync(path.join(PROJECT_ROOT, 'package.json'), path.join(release, 'package.json'));
        for (const shared of ['node_modules', 'schemas'])
          symlinkSync(path.join(PROJECT_ROOT, shared), path.join(release, shared));
        return path.join(release, 'dist', 'src', 'main.js');
      },
    ],
  ];
  for (const [how, place] of invocations) {
    it(`starts and serves when run ${how}`, async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-release-'));
      try {
        const server = await startChild({ CONFIG_DIR: root }, { script: place(dir) });
        const res = await fetch(`${server.url}/api/v1/networks/evm:sepolia`);
        expect(res.status).to.equal(200);
        expect(await server.stop('SIGTERM')).to.equal(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
