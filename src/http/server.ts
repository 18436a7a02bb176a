/**
 * The HTTP server around the Koa app, with the timeouts that keep slow or abusive clients from
 * holding connections: headers must arrive within 10 s, a whole request within 30 s, and an idle
 * keep-alive connection is closed after 5 s.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

export const TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

export function listen(app: Koa, host: string, port: number): Promise<http.Server> {
  const server = http.createServer(app.callback());
  server.headersTimeout = TIMEOUTS.headersMs;
  server.requestTimeout = TIMEOUTS.requestMs;
  server.keepAliveTimeout = TIMEOUTS.keepAliveMs;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export function addressOf(server: http.Server): string {
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${host}:${addr.port}`;
}

/** Stops accepting, lets requests in flight finish, then closes idle keep-alive connections. */
export function closeGracefully(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
