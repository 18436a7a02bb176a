/**
 * The helpers that must name a port before their server binds it (a git daemon, Prometheus): another process may
 * take the port in between. Here the first port handed out is one a listening socket already holds, and each real
 * server must say so in words onFreePort knows, and come up on the next port.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { serveGitDaemon } from './git-daemon.js';
import { servePrometheus } from './prometheus.js';
import { freePort, onFreePort } from './reliability-child.js';
import { removeDir } from './fixtures.js';

interface Case {
  name: string;
  /** Starts the server on `port` with its files in `dir`; resolves once it is ready, with how to stop it. */
  start(dir: string, port: number): Promise<{ stop(): Promise<void> }>;
}

const cases: Case[] = [
  {
    name: 'git daemon',
    start: async (dir, port) => {
      const child: ChildProcess = await serveGitDaemon(dir, port);
      return {
        stop: () =>
          new Promise((resolve) => {
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    },
  },
  {
    name: 'Prometheus',
    start: (dir, port) => {
      writeFileSync(path.join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1s\n');
      return servePrometheus(dir, port, 15_000);
    },
  },
];

describe('helpers: a server started on a port another process took first', function () {
  this.timeout(60_000);
  let dir: string;
  let holder: net.Server;
  let held: number;
  const sockets = new Set<net.Socket>();

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-free-port-'));
    holder = net.createServer((socket) => sockets.add(socket)); // holds the port, answers nothing
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    held = (holder.address() as net.AddressInfo).port;
  });
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await new Promise((resolve) => holder.close(resolve));
    removeDir(dir);
  });

  for (const c of cases) {
    it(`${c.name}: says the port is taken, and is started on the next one`, async () => {
      const tried: number[] = [];
      const ports = async (): Promise<number> => (tried.length === 0 ? held : freePort());
      const server = await onFreePort(
        async (port) => {
          tried.push(port);
          return c.start(dir, port);
        },
        { ports },
      );
      try {
        expect(tried).to.have.length(2);
        expect(tried[0]).to.equal(held);
        // It answers on the second port: a connection is accepted there.
        await new Promise<void>((resolve, reject) => {
          const socket = net.connect(tried[1] as number, '127.0.0.1', () => {
            socket.end();
            resolve();
          });
          socket.once('error', reject);
        });
      } finally {
        await server.stop();
      }
    });
  }
});
