/**
 * HTTP for the reliability tests. `call` is node:http with a keep-alive agent (fetch would
 * normalise paths and hide connection errors behind "fetch failed"); `rawExchange` writes the
 * request bytes exactly as given on a socket, so a path like `/networks/..%2F..%2Fetc` or a
 * header sent twice reaches the server untouched.
 */
import http from 'node:http';
import net from 'node:net';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface CallOptions {
  body?: string | Buffer;
  headers?: Record<string, string>;
  agent?: http.Agent | false;
  timeoutMs?: number;
}

export const keepAlive = (): http.Agent => new http.Agent({ keepAlive: true, maxSockets: 16 });

/** One request; rejects on a connection error (a killed server), resolves on any status. */
export function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const { hostname, port } = new URL(base);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  if (body !== undefined) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method, path, headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('aborted', () => reject(new Error('response aborted')));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.end(body);
  });
}

export function patchUrls(base: string, id: string, rpcUrls: unknown[], options: CallOptions = {}): Promise<Reply> {
  return call(base, 'PATCH', `/api/v1/networks/${id}`, { ...options, body: JSON.stringify({ rpc_urls: rpcUrls }) });
}

export interface RawReply {
  /** 0 when the server closed the connection without answering. */
  status: number;
  headers: Record<string, string[]>;
  body: Buffer;
}

/** Sends `bytes` as they are, reads until the server closes, parses the (first) response. */
export function rawExchange(port: number, bytes: Buffer | string, timeoutMs = 10_000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('raw exchange timed out')));
    // write, not end: Node's server drops a request whose client half-closes before the answer.
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A server may reset a connection it refuses; what it said before that still counts.
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') finish();
      else reject(err);
    });
    socket.on('close', () => finish());
    let done = false;
    function finish(): void {
      if (done) return;
      done = true;
      resolve(parseResponse(Buffer.concat(chunks)));
    }
  });
}

export function parseResponse(data: Buffer): RawReply {
  const split = data.indexOf('\r\n\r\n');
  if (split < 0) return { status: 0, headers: {}, body: data };
  const [statusLine = '', ...lines] = data.subarray(0, split).toString('latin1').split('\r\n');
  const headers: Record<string, string[]> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    (headers[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
  }
  let body = data.subarray(split + 4);
  const length = headers['content-length']?.[0];
  if (length !== undefined) body = body.subarray(0, Number(length));
  else if (headers['transfer-encoding']?.[0] === 'chunked') body = dechunk(body);
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const eol = data.indexOf('\r\n', at);
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** The error envelope every refusal must use. */
export function isEnvelope(text: string): boolean {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const details = body.details;
    return (
      body.success === false &&
      body.data === null &&
      typeof body.error === 'string' &&
      body.error.length > 0 &&
      typeof body.code === 'string' &&
      /^[A-Z][A-Z_]*$/.test(body.code) &&
      (details === undefined ||
        (Array.isArray(details) &&
          details.every((d) => typeof d?.pointer === 'string' && typeof d?.message === 'string')))
    );
  } catch {
    return false;
  }
}

/**
 * Polls GET /api/v1/ready (as an orchestrator would) until `done`, up to a deadline; returns the
 * last report. Every answer must be 200: one bad file must not take the replica out of service.
 */
export async function awaitReadiness<T>(base: string, done: (report: T) => boolean, deadlineMs = 30_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const reply = await call(base, 'GET', '/api/v1/ready');
    if (reply.status !== 200)
      throw new Error(
        `readiness answered ${reply.status}: one bad file must not take the replica out of service (${reply.text.slice(0, 300)})`,
      );
    const report = JSON.parse(reply.text) as T;
    if (done(report) || Date.now() > deadline) return report;
    await new Promise((r) => setTimeout(r, 50));
  }
}
