/**
 * The HTTP server around the Koa app, with the timeouts that keep slow or abusive clients from
 * holding connections: by default headers must arrive within 10 s, a whole request within 30 s,
 * and an idle keep-alive connection is closed after 5 s (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS,
 * KEEP_ALIVE_TIMEOUT_MS).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

export interface Timeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
}

export const TIMEOUTS: Timeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

export function listen(app: Koa, host: string, port: number, timeouts: Timeouts = TIMEOUTS): Promise<http.Server> {
  // Node checks these timeouts on an interval (30 s by default); check every second instead.
  const server = http.createServer({ connectionsCheckingInterval: 1000 }, app.callback());
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
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
    // A connection becomes idle when its last response ends (a change stream ends on shutdown),
    // so keep closing idle ones until the server is closed rather than wait out keep-alive.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}
