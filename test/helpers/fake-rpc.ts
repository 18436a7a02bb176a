/**
 * Fake JSON-RPC endpoints on loopback for the prober's tests: each answers methods from a table
 * (or hangs, redirects, sends garbage or an endless body), and counts calls, calls in flight and
 * connections. Batches are answered call by call, unless `noBatch` (one error object for the whole
 * batch, as JSON-RPC 2.0 allows a server that refuses them). With `dropReused` it closes a kept-alive
 * connection when a second request comes on it, as a server whose idle timeout fires just as the
 * client reuses the connection does. `requestsReached(n)` lets a test await the n-th request as an
 * event (a `hang` answer accepts the request and never answers: a silent endpoint).
 */
import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a method answers: a result, a JSON-RPC error, or a way of misbehaving. */
export type Answer =
  { result: unknown } | { error: string } | 'hang' | 'garbage' | 'endless' | { redirect: string } | { status: number };

export interface FakeRpc {
  url: string;
  calls: string[];
  maxInFlight: number;
  /** HTTP requests (a batch is one). */
  requests: number;
  /** Requests answered so far (a `hang` one never is). */
  answered: number;
  connections: number;
  /** Resolves once `n` requests have come in; rejects after `deadlineMs` saying how many did. */
  requestsReached(n: number, deadlineMs: number): Promise<void>;
  close(): Promise<void>;
}

interface Call {
  id: unknown;
  method: string;
}

export async function startFakeRpc(
  answers: Record<string, Answer>,
  delayMs = 0,
  { dropReused = false, noBatch = false } = {},
): Promise<FakeRpc> {
  const arrivals = new EventEmitter();
  const fake: FakeRpc = {
    url: '',
    calls: [],
    maxInFlight: 0,
    requests: 0,
    answered: 0,
    connections: 0,
    requestsReached: async (n, deadlineMs) => {
      const deadline = AbortSignal.timeout(deadlineMs);
      try {
        while (fake.requests < n) await once(arrivals, 'request', { signal: deadline });
      } catch {
        throw new Error(`only ${fake.requests} of ${n} requests came in within ${deadlineMs} ms`);
      }
    },
    close: async () => undefined,
  };
  let inFlight = 0;
  const served = new WeakSet<object>();
  const server = http.createServer((req, res) => {
    if (dropReused && served.has(req.socket)) return void req.socket.destroy();
    served.add(req.socket);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      inFlight++;
      fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
      const batch = Array.isArray(parsed) ? parsed : null;
      fake.requests++;
      arrivals.emit('request');
      const calls = batch ?? [parsed as Call];
      for (const call of calls) fake.calls.push(call.method);
      const answered = calls.map((call) => ({ call, answer: answers[call.method] ?? { error: 'Method not found' } }));
      // A misbehaving method misbehaves for the whole request it is in.
      const misbehaving = answered.find(
        ({ answer }) => typeof answer === 'string' || 'redirect' in answer || 'status' in answer,
      )?.answer;
      const reply = (): void => {
        inFlight--;
        if (misbehaving !== 'hang' || (batch && noBatch)) fake.answered++;
        if (batch && noBatch)
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: null,
              error: { code: -32600, message: 'batch requests are not supported' },
            }),
          );
        if (misbehaving === 'hang') return; // never answers
        if (misbehaving === 'garbage') return void res.end('<html>not json');
        if (misbehaving === 'endless') {
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(16 * 1024, 'x');
          const pump = (): void => {
            while (res.write(chunk)) if (res.destroyed) return;
            res.once('drain', pump);
          };
          res.on('close', () => res.removeAllListeners('drain'));
          return pump();
        }
        if (misbehaving && 'redirect' in misbehaving)
          return void res.writeHead(302, { location: misbehaving.redirect }).end();
        if (misbehaving && 'status' in misbehaving) return void res.writeHead(misbehaving.status).end('{}');
        const bodies = answered.map(({ call, answer }) =>
          'error' in (answer as object)
            ? { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: (answer as { error: string }).error } }
            : { jsonrpc: '2.0', id: call.id, result: (answer as { result: unknown }).result },
        );
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(batch ? bodies : bodies[0]));
      };
      if (delayMs > 0) setTimeout(reply, delayMs);
      else reply();
    });
  });
  server.on('connection', () => fake.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
