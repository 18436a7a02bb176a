/**
 * The webhook's signature is checked as the body streams in, on a real listening server: a body
 * sent in many chunks is verified in each HMAC form, an unsigned request is refused before its
 * body has ended, and a chunked body past 1 MiB is answered 413 (not cut off). Without GIT_SYNC
 * a verified webhook is 501: that, not 401, is what shows the signature matched.
 * (Pulls started by a verified webhook are tested in test/store/git/git-sync.test.ts.)
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { addressOf, closeGracefully, listen } from '../../src/http/server.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startStore } from '../helpers/store.js';

const SECRET = 'a webhook secret of the git host';
const hmac = (body: Buffer): string => createHmac('sha256', SECRET).update(body).digest('hex');

interface Answer {
  status: number;
  code: string;
}

/**
 * POSTs `chunks` one write at a time (chunked encoding), each once the last is flushed, and
 * resolves with the answer; with `end: false` the body is never finished. Rejects after a deadline.
 */
function post(
  url: string,
  headers: Record<string, string>,
  chunks: Buffer[],
  end = true,
  deadlineMs = 5000,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      `${url}/api/v1/webhooks/git`,
      { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } },
      (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          clearTimeout(timer);
          req.destroy();
          resolve({ status: res.statusCode ?? 0, code: (JSON.parse(text) as { code?: string }).code ?? '' });
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
    req.on('error', reject);
    req.flushHeaders(); // the headers go out even when no body byte follows
    const next = (i: number): void => {
      if (answered || req.destroyed) return;
      if (i < chunks.length) req.write(chunks[i], () => next(i + 1));
      else if (end) req.end();
    };
    next(0);
  });
}

/** `count` chunks of `size` bytes of a JSON-ish body. */
const body = (count: number, size: number): Buffer[] =>
  Array.from({ length: count }, (_, i) => Buffer.alloc(size, String(i % 10)));

describe('http/webhooks (signature checked while the body streams)', () => {
  let root: string;
  let store: NetworkStore;
  let server: http.Server;
  let url: string;

  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    store = await startStore(root);
    server = await listen(createApp(store, { webhookSecret: SECRET }), '127.0.0.1', 0);
    url = addressOf(server);
  });
  afterEach(async () => {
    server.closeAllConnections();
    await closeGracefully(server);
    await store.close();
    removeDir(root);
  });

  const chunks = body(40, 16 * 1024); // 640 KiB in 40 writes
  const whole = Buffer.concat(chunks);
  const cases: Array<{
    name: string;
    headers: Record<string, string>;
    chunks: Buffer[];
    end?: boolean;
    expected: Answer;
  }> = [
    {
      name: 'GitHub, a body in 40 chunks',
      headers: { 'X-Hub-Signature-256': `sha256=${hmac(whole)}` },
      chunks,
      expected: { status: 501, code: 'NOT_IMPLEMENTED' },
    },
    {
      name: 'GitHub, upper-case hex',
      headers: { 'X-Hub-Signature-256': `sha256=${hmac(whole).toUpperCase()}` },
      chunks,
      expected: { status: 501, code: 'NOT_IMPLEMENTED' },
    },
    {
      name: 'Gitea, a body in 40 chunks',
      headers: { 'X-Gitea-Signature': hmac(whole) },
      chunks,
      expected: { status: 501, code: 'NOT_IMPLEMENTED' },
    },
    {
      name: 'GitLab, whose token needs no body: answered before the body ends',
      headers: { 'X-Gitlab-Token': SECRET },
      chunks,
      end: false,
      expected: { status: 501, code: 'NOT_IMPLEMENTED' },
    },
    {
      name: 'GitHub, the signature of the body without its last chunk',
      headers: { 'X-Hub-Signature-256': `sha256=${hmac(Buffer.concat(chunks.slice(0, -1)))}` },
      chunks,
      expected: { status: 401, code: 'UNAUTHORIZED' },
    },
    {
      name: 'unsigned: refused before the body ends',
      headers: {},
      chunks,
      end: false,
      expected: { status: 401, code: 'UNAUTHORIZED' },
    },
    {
      name: 'a wrong GitLab token: refused before the body ends',
      headers: { 'X-Gitlab-Token': `${SECRET}x` },
      chunks,
      end: false,
      expected: { status: 401, code: 'UNAUTHORIZED' },
    },
    {
      name: 'GitHub, a chunked body past 1 MiB: answered 413',
      headers: { 'X-Hub-Signature-256': `sha256=${'0'.repeat(64)}` },
      chunks: body(80, 16 * 1024),
      end: false,
      expected: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
    },
    {
      name: 'a Content-Length past 1 MiB: 413 before any byte is read',
      headers: { 'Content-Length': String(1024 * 1024 + 1), 'X-Gitea-Signature': hmac(whole) },
      chunks: [],
      end: false,
      expected: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      expect(await post(url, c.headers, c.chunks, c.end ?? true)).to.deep.equal(c.expected);
    });
  }
});
