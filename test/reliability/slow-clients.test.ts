/**
 * Slow and abusive clients against a built server: headers trickled a byte a second, a body that
 * never ends (Content-Length and chunked), 500 connections that never say a word, and an idle
 * keep-alive connection. The server keeps answering a well-behaved client meanwhile and cuts each
 * abuser once its timeout passes. The timeouts are shortened through HEADERS_TIMEOUT_MS,
 * REQUEST_TIMEOUT_MS and KEEP_ALIVE_TIMEOUT_MS so the test need not wait 10-30 s; the defaults
 * are checked separately. Bounds are generous (timeout + Node's 1 s check + 3 s): they show a
 * timeout exists, not how fast the server is.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { configFromEnv } from '../../src/config/index.js';
import { createApp } from '../../src/http/app.js';
import { closeGracefully, listen, TIMEOUTS } from '../../src/http/server.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { call, keepAlive } from '../helpers/reliability-http.js';
import { startStore } from '../helpers/store.js';

const SHORT = { headers: 2000, request: 3000, keepAlive: 500 };
const SLACK = 1000 + 3000; // Node checks header/request timeouts once a second

interface Abuser {
  name: string;
  /** ms from the start until the server closed it; null while open. */
  closedAt: number | null;
  said: string;
  socket: net.Socket;
}

function abuse(port: number, name: string, start: number, act: (s: net.Socket) => void): Promise<Abuser> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const abuser: Abuser = { name, closedAt: null, said: '', socket };
    socket.on('data', (d: Buffer) => (abuser.said += d.toString('latin1')));
    socket.on('error', () => undefined); // a reset is one way of being cut
    socket.on('close', () => (abuser.closedAt = Date.now() - start));
    socket.once('connect', () => {
      act(socket);
      resolve(abuser);
    });
    socket.once('error', reject);
  });
}

/** Writes `piece` every `everyMs` until the server closes the socket. */
function trickle(socket: net.Socket, piece: string, everyMs: number): void {
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(piece)), everyMs);
  socket.once('close', () => clearInterval(timer));
}

describe('reliability: slow and abusive clients', function () {
  this.timeout(60_000);
  let root: string;
  let server: Server;

  before(async () => {
    root = makeConfigDir(standardFiles());
    server = await startServer({
      CONFIG_DIR: root,
      HEADERS_TIMEOUT_MS: String(SHORT.headers),
      REQUEST_TIMEOUT_MS: String(SHORT.request),
      KEEP_ALIVE_TIMEOUT_MS: String(SHORT.keepAlive),
    });
  });
  after(async () => {
    await server?.kill('SIGTERM');
    removeDir(root);
  });

  it('the defaults: headers 10 s, whole request 30 s, idle keep-alive 5 s', async () => {
    expect(configFromEnv({}).timeouts).to.deep.equal({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 });
    expect(TIMEOUTS).to.deep.equal({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 });
    const store: NetworkStore = await startStore(root);
    const http = await listen(createApp(store), '127.0.0.1', 0);
    try {
      expect([http.headersTimeout, http.requestTimeout, http.keepAliveTimeout]).to.deep.equal([10_000, 30_000, 5_000]);
    } finally {
      await closeGracefully(http);
      await store.close();
    }
  });

  it('500 silent connections, trickled headers and endless bodies: others are answered, each abuser is cut', async () => {
    const start = Date.now();
    const before = readFileSync(path.join(root, 'evm/sepolia.yaml'));
    const idle = await Promise.all(
      Array.from({ length: 500 }, (_, i) => abuse(server.port, `idle ${i}`, start, () => undefined)),
    );
    const slow = await Promise.all([
      abuse(server.port, 'headers one byte a second', start, (s) => {
        s.write('GET /api/v1/networks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
        trickle(s, 'a', 1000);
      }),
      abuse(server.port, 'body that never ends (Content-Length)', start, (s) => {
        s.write(
          'PATCH /api/v1/networks/evm:sepolia HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50000\r\n\r\n{"rpc_urls":[',
        );
        trickle(s, ' ', 200);
      }),
      abuse(server.port, 'body that never ends (chunked)', start, (s) => {
        s.write(
          'PATCH /api/v1/networks/evm:sepolia HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n',
        );
        trickle(s, '1\r\n \r\n', 200);
      }),
      abuse(server.port, 'idle keep-alive after one request', start, (s) =>
        s.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      ),
    ]);

    // A well-behaved client is answered while all of them hold their connections.
    const agent = keepAlive();
    const answered: number[] = [];
    for (let i = 0; i < 10; i++)
      answered.push(
        (await call(server.url, 'GET', i % 2 ? '/api/v1/networks' : '/api/v1/networks/evm:sepolia', { agent })).status,
      );
    const stillOpen = idle.filter((a) => a.closedAt === null).length;
    expect(answered).to.deep.equal(Array(10).fill(200));
    expect(stillOpen, 'the 500 idle connections were still held while others were answered').to.be.greaterThan(400);

    // Then every abuser is cut; the well-behaved client goes on being answered.
    const deadline = Date.now() + SHORT.request + SLACK;
    while ([...idle, ...slow].some((a) => a.closedAt === null) && Date.now() < deadline) {
      expect((await call(server.url, 'GET', '/api/v1/networks', { agent })).status).to.equal(200);
      await new Promise((r) => setTimeout(r, 50));
    }
    agent.destroy();
    const bounds: Record<string, number> = {
      'headers one byte a second': SHORT.headers + SLACK,
      'body that never ends (Content-Length)': SHORT.request + SLACK,
      'body that never ends (chunked)': SHORT.request + SLACK,
      'idle keep-alive after one request': SHORT.keepAlive + SLACK,
    };
    for (const a of slow) {
      expect(a.closedAt, `${a.name} was never cut`).not.to.equal(null);
      expect(a.closedAt as number, a.name).to.be.at.most(bounds[a.name] as number);
    }
    expect(slow[3]?.said).to.match(/^HTTP\/1\.1 200/); // it was answered first, then closed when idle
    const uncut = idle.filter((a) => a.closedAt === null).length;
    expect(uncut, 'silent connections never cut').to.equal(0);
    expect(Math.max(...idle.map((a) => a.closedAt as number))).to.be.at.most(SHORT.headers + SLACK);
    expect(
      readFileSync(path.join(root, 'evm/sepolia.yaml')).equals(before),
      'an unfinished PATCH changed the file',
    ).to.equal(true);
    for (const a of [...idle, ...slow]) a.socket.destroy();
  });
});
