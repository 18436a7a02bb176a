/**
 * JSON-RPC calls to an RPC URL, as the prober makes them: a POST with a deadline, no redirect
 * followed, at most `maxBytes` of answer read, and, when internal addresses are blocked, the
 * address the name resolves to checked at connect time (a public name that resolves to a private
 * address is refused, which a check of the URL's text cannot see). Connections are kept alive in
 * the caller's agents, as node's own client does: a probe is then one request, not a TCP (and TLS)
 * handshake that leaves a socket in TIME_WAIT.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isInternalHost } from '../store/index.js';
import { clip, redactUrl } from '../redact.js';

export interface CallOptions {
  timeoutMs: number;
  maxBytes: number;
  /** RPC_BLOCK_PRIVATE_IPS: refuse to connect to an internal address, whatever the name. */
  blockPrivate: boolean;
  /** How names are resolved (node's dns.lookup unless a test gives its own). */
  lookup?: LookupFunction;
  /** Where kept-alive connections live, per protocol; without them every call has its own connection. */
  agents?: Agents;
}

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/** Keep-alive agents; one set per prober, so that connections opened under one RPC_BLOCK_PRIVATE_IPS setting serve no other. */
export function keepAliveAgents(): Agents {
  return { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
}

/** Why a call failed: the endpoint could not be reached, or what it answered is not a JSON-RPC result. */
export class CallFailed extends Error {
  constructor(
    readonly kind: 'unreachable' | 'bad_response',
    message: string,
  ) {
    super(message);
  }
}

/** A reset on a reused connection, which send() retries. */
class ReusedSocketReset extends CallFailed {}

/**
 * The results of `methods` (without params) at `url`, asked as one JSON-RPC batch: one request,
 * answered by one node behind the URL's load balancer, so that the chain and the head it reports
 * are the same node's. An endpoint that refuses batches (one error object for the whole batch, as
 * JSON-RPC 2.0 allows) is asked one call at a time. Throws CallFailed for the first call that failed.
 */
export async function rpcCalls(url: string, methods: string[], options: CallOptions): Promise<unknown[]> {
  const what = methods.join(', ');
  const answer = parseJson(
    await send(url, JSON.stringify(methods.map((method, id) => ({ jsonrpc: '2.0', id, method, params: [] }))), options),
    what,
  );
  if (!Array.isArray(answer)) {
    if (answer !== null && typeof answer === 'object' && 'error' in answer) {
      const results: unknown[] = [];
      for (const method of methods) results.push(await oneCall(url, method, options));
      return results;
    }
    throw new CallFailed('bad_response', `${what}: the answer to the batch is not a JSON-RPC batch`);
  }
  const byId = new Map((answer as Array<{ id?: unknown } | null>).map((a) => [a?.id, a]));
  return methods.map((method, id) => resultOf(byId.get(id), method));
}

/** The `result` of `method` asked alone, for an endpoint that refuses batches. */
async function oneCall(url: string, method: string, options: CallOptions): Promise<unknown> {
  return resultOf(
    parseJson(await send(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }), options), method),
    method,
  );
}

/** POST `body`; a kept-alive connection the server closed as we reused it is retried once on a new one (node's documented answer). */
async function send(url: string, body: string, options: CallOptions): Promise<string> {
  return post(url, body, options).catch((err: unknown) => {
    if (err instanceof ReusedSocketReset) return post(url, body, { ...options, agents: undefined });
    throw err;
  });
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CallFailed('bad_response', `${what}: the answer is not JSON`);
  }
}

/** One JSON-RPC response's result; its error, or its absence, as a CallFailed naming the method. */
function resultOf(parsed: unknown, method: string): unknown {
  const answer = parsed as { result?: unknown; error?: { message?: unknown } } | null | undefined;
  if (answer === null || answer === undefined || typeof answer !== 'object')
    throw new CallFailed('bad_response', `${method}: the answer is not a JSON-RPC object`);
  if (answer.error !== undefined)
    throw new CallFailed(
      'bad_response',
      `${method}: error ${clip(JSON.stringify(String(answer.error?.message ?? answer.error)), 200)}`,
    );
  if (!('result' in answer)) throw new CallFailed('bad_response', `${method}: the answer has no result`);
  return answer.result;
}

function post(url: string, body: string, options: CallOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    // An address written in the URL is never looked up, so it is checked here.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (options.blockPrivate && isIP(literal) !== 0 && isInternalHost(literal)) {
      return reject(
        new CallFailed('unreachable', `${literal} is an internal address; RPC_BLOCK_PRIVATE_IPS forbids it`),
      );
    }
    const lookup = guardedLookup(options);
    const secure = target.protocol === 'https:';
    const send = secure ? https.request : http.request;
    const agent = (secure ? options.agents?.https : options.agents?.http) ?? false;
    const req = send(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        lookup,
        agent,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          const to = res.headers.location ? ` to ${redactUrl(new URL(res.headers.location, url).href)}` : '';
          return fail('bad_response', `redirected (${status})${to}; redirects are not followed`);
        }
        if (status !== 200) {
          res.resume();
          return fail('bad_response', `HTTP ${status}`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes)
            return fail('bad_response', `the answer is larger than ${options.maxBytes} bytes`);
          chunks.push(chunk);
        });
        res.on('end', () => finish(() => resolve(Buffer.concat(chunks).toString('utf8'))));
        res.on('error', (err) => fail('unreachable', err.message));
      },
    );
    const timer = setTimeout(() => fail('unreachable', `no answer within ${options.timeoutMs} ms`), options.timeoutMs);
    let done = false;
    function finish(settle: () => void): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      settle();
    }
    function fail(kind: CallFailed['kind'], message: string): void {
      finish(() => reject(new CallFailed(kind, message)));
      req.destroy();
    }
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (req.reusedSocket && err.code === 'ECONNRESET')
        return finish(() => reject(new ReusedSocketReset('unreachable', err.message)));
      fail('unreachable', err.code === 'EPRIVATE' ? err.message : `${err.code ?? 'error'}: ${err.message}`);
    });
    req.end(body);
  });
}

/** dns.lookup, refusing a name any of whose addresses is internal when blocking is on. */
function guardedLookup(options: CallOptions): LookupFunction {
  const lookup = options.lookup ?? (dns.lookup as LookupFunction);
  if (!options.blockPrivate) return lookup;
  return (hostname, lookupOptions, callback) => {
    lookup(hostname, { ...lookupOptions, all: true }, (err, found) => {
      if (err) return callback(err, '', 0);
      const addresses = found as unknown as LookupAddress[];
      const internal = addresses.find((a) => isInternalHost(a.address));
      if (internal || addresses.length === 0) {
        const refused = Object.assign(
          new Error(
            `${hostname} resolves to ${internal?.address ?? 'nothing'}, an internal address; RPC_BLOCK_PRIVATE_IPS forbids it`,
          ),
          { code: 'EPRIVATE' },
        );
        return callback(refused, '', 0);
      }
      if (lookupOptions.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]?.address as string, addresses[0]?.family as number);
    });
  };
}

/** The results of `calls` (with params) at `url`, asked as one JSON-RPC batch; CallFailed for the first that failed. */
export async function rpcBatch(
  url: string,
  calls: Array<{ method: string; params: unknown[] }>,
  options: CallOptions,
): Promise<unknown[]> {
  const what = calls.map((c) => c.method).join(', ');
  const body = JSON.stringify(calls.map(({ method, params }, id) => ({ jsonrpc: '2.0', id, method, params })));
  const answer = parseJson(await send(url, body, options), what);
  if (!Array.isArray(answer))
    throw new CallFailed('bad_response', `${what}: the answer to the batch is not a JSON-RPC batch`);
  const byId = new Map((answer as Array<{ id?: unknown } | null>).map((a) => [a?.id, a]));
  return calls.map(({ method }, id) => resultOf(byId.get(id), method));
}
