/**
 * Webhook bodies are not held by the server: a built server with GIT_WEBHOOK_SECRET gets 300
 * loopback connections that each send a webhook's headers (Content-Length under the 1 MiB limit)
 * and 900 KiB of an unsigned body, then stall. The server's RSS is read from /proc once the
 * kernel says the server has read every byte sent (nothing left in the connections' queues), and
 * again after they close. Buffering those bodies takes 264 MiB; the bound is half that, 128 MiB:
 * reading them through the garbage collector costs 35-45 MiB on a quiet host and up to 66 MiB seen
 * beside a second suite (when it collects depends on the host), whatever the amount read. Waits are
 * on events (write callbacks) and on the kernel's queues, with deadlines.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { expect } from 'chai';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { call } from '../helpers/reliability-http.js';

const SECRET = 'the webhook secret of the git host';
const CONNECTIONS = 300;
const DECLARED = 1_000_000;
const SENT = 900 * 1024;
const RSS_BOUND_KB = 128 * 1024;

function rssKb(server: Server): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))?.[1]);
}

/**
 * Bytes on their way to the server on `port` that it has not read yet (the clients' send queues
 * and the server's receive queues, as the kernel counts them), and how many connections it has.
 */
function queuedOn(port: number): { bytes: number; connections: number } {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let bytes = 0;
  let connections = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, local, remote, state, queues] = line.trim().split(/\s+/);
    if (state === '06' || state === '0A') continue; // TIME_WAIT holds no data and no process; LISTEN is the server itself
    const [tx, rx] = (queues ?? '0:0').split(':').map((q) => parseInt(q, 16));
    if (remote?.endsWith(`:${hexPort}`)) bytes += tx ?? 0;
    else if (local?.endsWith(`:${hexPort}`)) {
      bytes += rx ?? 0;
      connections++;
    }
  }
  return { bytes, connections };
}

/** Polls the kernel's view of the server's connections until `done`, up to a deadline. */
async function untilQueues(
  port: number,
  done: (q: { bytes: number; connections: number }) => boolean,
  what: string,
  deadlineMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!done(queuedOn(port))) {
    if (Date.now() > deadline)
      throw new Error(`${what} not within ${deadlineMs} ms: ${JSON.stringify(queuedOn(port))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One connection: a webhook's headers and `SENT` bytes of its body; resolves once the kernel has taken them. */
function stall(port: number, headers: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/v1/webhooks/git HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${headers}Content-Length: ${DECLARED}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(SENT, '{'), (err) => (err ? reject(err) : resolve(socket)));
    });
    socket.on('error', () => undefined); // a reset after the test's checks is one way to end
    socket.once('error', reject);
  });
}

const cases: Array<{ name: string; headers: string }> = [
  { name: 'no signature at all', headers: '' },
  { name: 'a GitHub signature that will not match', headers: `X-Hub-Signature-256: sha256=${'0'.repeat(64)}\r\n` },
  { name: 'a Gitea signature that will not match', headers: `X-Gitea-Signature: ${'0'.repeat(64)}\r\n` },
];

describe('reliability: webhook bodies are not buffered', function () {
  this.timeout(120_000);
  let root: string;
  let server: Server | undefined;

  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    server = await startServer({ CONFIG_DIR: root, GIT_WEBHOOK_SECRET: SECRET });
  });
  afterEach(async () => {
    await server?.kill('SIGTERM');
    server = undefined;
    removeDir(root);
  });

  for (const { name, headers } of cases) {
    it(`${CONNECTIONS} stalled bodies with ${name}: RSS grows by less than ${RSS_BOUND_KB / 1024} MiB, and stays so once they close`, async () => {
      const s = server!;
      // A first request so that what any request costs once (code paths, pools) is in the baseline.
      expect((await call(s.url, 'POST', '/api/v1/webhooks/git', { body: '{}' })).status).to.equal(401);
      const before = rssKb(s);

      const sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => stall(s.port, headers)));
      await untilQueues(
        s.port,
        (q) => q.connections >= CONNECTIONS && q.bytes === 0,
        'the server reading every byte sent',
      );
      const stalled = rssKb(s);
      expect((await call(s.url, 'GET', '/api/v1/health')).status, 'health while they stall').to.equal(200);

      for (const socket of sockets) socket.destroy();
      await untilQueues(s.port, (q) => q.connections === 0, 'every connection gone');
      const closed = rssKb(s);

      const sentMiB = Math.round((CONNECTIONS * SENT) / 1024 / 1024);
      const report =
        `RSS ${Math.round(before / 1024)} MiB before, ${Math.round(stalled / 1024)} MiB with ${sentMiB} MiB ` +
        `of bodies stalled, ${Math.round(closed / 1024)} MiB after they closed`;
      expect(stalled - before, report).to.be.below(RSS_BOUND_KB);
      expect(closed - before, report).to.be.below(RSS_BOUND_KB);
    });
  }
});
