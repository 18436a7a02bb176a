/**
 * Fake JSON-RPC endpoints on loopback for the prober's tests: each answers methods from a table
 * (or hangs, redirects, sends garbage or an endless body), and counts calls, calls in flight and
 * connections. With `dropReused` it closes a kept-alive connection when a second request comes on it,
 * as a server whose idle timeout fires just as the client reuses the connection does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a method answers: a result, a JSON-RPC error, or a way of misbehaving. */
export type Answer = { result: unknown } | { error: string } | 'hang' | 'garbage' | 'endless' | { redirect: string } | { status: number };

export interface FakeRpc {
  url: string;
  calls: string[];
  maxInFlight: number;
  connections: number;
  close(): Promise<void>;
}

export async function startFakeRpc(answers: Record<string, Answer>, delayMs = 0, { dropReused = false } = {}): Promise<FakeRpc> {
  const fake: FakeRpc = { url: '', calls: [], maxInFlight: 0, connections: 0, close: async () => undefined };
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
      const { method, id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { method: string; id: number };
      fake.calls.push(method);
      const answer = answers[method] ?? { error: 'Method not found' };
      const reply = (): void => {
        inFlight--;
        if (answer === 'hang') return; // never answers
        if (answer === 'garbage') return void res.end('<html>not json');
        if (answer === 'endless') {
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(16 * 1024, 'x');
          const pump = (): void => {
            while (res.write(chunk)) if (res.destroyed) return;
            res.once('drain', pump);
          };
          res.on('close', () => res.removeAllListeners('drain'));
          return pump();
        }
        if ('redirect' in answer) return void res.writeHead(302, { location: answer.redirect }).end();
        if ('status' in answer) return void res.writeHead(answer.status).end('{}');
        const body = 'error' in answer ? { jsonrpc: '2.0', id, error: { code: -32000, message: answer.error } } : { jsonrpc: '2.0', id, result: answer.result };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
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
