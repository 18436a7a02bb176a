/**
 * A stand-in for the OpenZeppelin Relayer's network routes: a real HTTP server on loopback that
 * behaves as its source says (v1.8.0): src/main.rs (every route behind `Authorization: Bearer
 * <API_KEY>`, 401 `{"success":false,"code":401,"error":"Unauthorized","message":"Unauthorized"}`),
 * src/api/controllers/network.rs and src/models/network/request.rs (the paged list with
 * `pagination` {current_page, per_page, total_items}, page 1 and 10 by default; get, 404 "Network
 * with ID '<id>' not found"; PATCH of `rpc_urls` only: unknown fields, an empty body, an empty
 * list or a URL that is not http(s) are 400, and every other field is kept), state in memory.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInNetwork {
  id: string;
  rpc_urls: Array<{ url: string; weight: number }>;
  [field: string]: unknown;
}

export interface StandInRelayer {
  url: string;
  port: number;
  networks: Map<string, StandInNetwork>;
  /** Every request, in order: method, path, body, and whether its key was right. */
  requests: Array<{ method: string; path: string; body: string; authorized: boolean; at: number }>;
  /** How it answers now: as the relayer does, never (a relayer hung), or 500 (one failing inside). */
  mode: 'normal' | 'stall' | 'error500' | 'refuse-patch';
  /** While set, a PATCH waits for it before it is applied (a PATCH in flight). */
  patchGate: Promise<void> | null;
  /** While set, a list waits for it and then answers what is held then (a list in flight). */
  listGate: Promise<void> | null;
  /** Resolves once it has taken `count` requests of `method` in all. */
  untilRequests(count: number, method: string): Promise<void>;
  /** Resolves at the next PATCH it takes (after it is applied). */
  nextPatch(): Promise<{ id: string; body: unknown }>;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};
const failure = (res: http.ServerResponse, status: number, error: string): void =>
  json(res, status, { success: false, data: null, error });

export async function startStandInRelayer(
  apiKey: string,
  networks: StandInNetwork[],
  port = 0,
): Promise<StandInRelayer> {
  const state = new Map(networks.map((n) => [n.id, structuredClone(n)]));
  const requests: StandInRelayer['requests'] = [];
  let waiters: Array<(patch: { id: string; body: unknown }) => void> = [];
  let counters: Array<() => boolean> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname.replace(/\/+$/, ''); // actix NormalizePath::trim
      const authorized = req.headers.authorization === `Bearer ${apiKey}`;
      requests.push({
        method: req.method ?? '',
        path: `${path}${url.search}`,
        body,
        authorized,
        at: performance.now(),
      });
      counters = counters.filter((done) => !done());
      if (standIn.mode === 'stall') return; // never answers: the caller's deadline must end it
      if (standIn.mode === 'error500')
        return failure(res, 500, 'Internal Server Error: Failed to retrieve network: redis down');
      if (!authorized)
        return void res
          .writeHead(401)
          .end('{"success":false,"code":401,"error":"Unauthorized","message":"Unauthorized"}');
      if (req.method === 'GET' && path === '/api/v1/networks' && standIn.listGate)
        return void standIn.listGate.then(() => list());
      if (req.method === 'GET' && path === '/api/v1/networks') return list();
      const match = /^\/api\/v1\/networks\/([^/]+)$/.exec(path);
      const id = match ? decodeURIComponent(match[1] as string) : '';
      const network = state.get(id);
      if (req.method === 'GET' && match)
        return network
          ? json(res, 200, { success: true, data: network, error: null })
          : failure(res, 404, `Network with ID '${id}' not found`);
      if (req.method === 'PATCH' && match && standIn.mode === 'refuse-patch')
        return failure(res, 400, 'Invalid RPC URL configuration: host not allowed by RPC_ALLOWED_HOSTS');
      if (req.method === 'PATCH' && match && standIn.patchGate) return void standIn.patchGate.then(() => apply());
      if (req.method === 'PATCH' && match) return apply();
      failure(res, 404, 'Not found');

      function list(): void {
        const page = Number(url.searchParams.get('page') ?? 1);
        const perPage = Number(url.searchParams.get('per_page') ?? 10);
        const all = [...state.values()];
        json(res, 200, {
          success: true,
          data: all.slice((page - 1) * perPage, page * perPage),
          error: null,
          pagination: { current_page: page, per_page: perPage, total_items: all.length },
        });
      }

      function apply(): void {
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(body) as Record<string, unknown>;
        } catch {
          return void res
            .writeHead(400, { 'content-type': 'text/plain' })
            .end('Json deserialize error: expected value at line 1 column 1');
        }
        const unknown = Object.keys(parsed).find((k) => k !== 'rpc_urls');
        if (unknown)
          return void res
            .writeHead(400, { 'content-type': 'text/plain' })
            .end(`Json deserialize error: unknown field \`${unknown}\`, expected \`rpc_urls\``);
        const urls = parsed.rpc_urls as unknown[] | undefined;
        if (urls === undefined) return failure(res, 400, 'At least one field must be provided for update');
        if (!Array.isArray(urls) || urls.length === 0)
          return failure(res, 400, 'rpc_urls must contain at least one RPC endpoint');
        const entries = urls.map((u) =>
          typeof u === 'string'
            ? { url: u, weight: 100 }
            : { url: String((u as { url: unknown }).url), weight: Number((u as { weight?: unknown }).weight ?? 100) },
        );
        const bad = entries.find((e) => !e.url.startsWith('http://') && !e.url.startsWith('https://'));
        if (bad)
          return failure(
            res,
            400,
            `Invalid RPC URL configuration: Invalid URL scheme for ${bad.url}: Only HTTP and HTTPS are supported`,
          );
        if (!network) return failure(res, 404, `Network with ID '${id}' not found`);
        network.rpc_urls = entries;
        json(res, 200, { success: true, data: network, error: null });
        const heard = waiters;
        waiters = [];
        for (const w of heard) w({ id, body: parsed });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  const standIn: StandInRelayer = {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    networks: state,
    requests,
    mode: 'normal',
    patchGate: null,
    listGate: null,
    nextPatch: () => new Promise((resolve) => waiters.push(resolve)),
    untilRequests: (count, method) =>
      new Promise((resolve) => {
        const done = (): boolean => requests.filter((q) => q.method === method).length >= count && (resolve(), true);
        if (!done()) counters.push(done);
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}
