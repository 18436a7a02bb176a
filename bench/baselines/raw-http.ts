/**
 * The physical limit: node:http answering bytes serialised before the first request (every
 * network's GET body at start, each list page the first time it is asked for). No framework, no
 * routing beyond a prefix test, no logging: nothing a service could do faster on this machine.
 */
import http from 'node:http';
import { baselineEnv, itemEnvelope, loadNetworks, NOT_FOUND, pageArgs, pageEnvelope } from './load-networks.js';

const { port, db } = baselineEnv();
const data = loadNetworks(db);
const ITEM_PREFIX = '/api/v1/networks/';
const items = new Map<string, Buffer>();
for (const [id, network] of data.byId) items.set(id, Buffer.from(itemEnvelope(network)));
const pages = new Map<string, Buffer>();
const notFound = Buffer.from(NOT_FOUND);

function send(res: http.ServerResponse, status: number, body: Buffer, etag?: string): void {
  const headers: http.OutgoingHttpHeaders = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
  };
  if (etag !== undefined) headers.ETag = etag;
  res.writeHead(status, headers);
  res.end(body);
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  if (url.startsWith(ITEM_PREFIX)) {
    const id = decodeURIComponent(url.slice(ITEM_PREFIX.length));
    const body = items.get(id);
    if (body) send(res, 200, body, data.etags.get(id));
    else send(res, 404, notFound);
    return;
  }
  const q = url.indexOf('?');
  if ((q < 0 ? url : url.slice(0, q)) === '/api/v1/networks') {
    const query = q < 0 ? '' : url.slice(q + 1);
    let body = pages.get(query);
    if (body === undefined) {
      const params = new URLSearchParams(query);
      const args = pageArgs(params.get('page'), params.get('per_page'));
      if (!args) return send(res, 400, notFound);
      body = Buffer.from(pageEnvelope(data, args));
      pages.set(query, body);
    }
    send(res, 200, body);
    return;
  }
  send(res, 404, notFound);
});
server.keepAliveTimeout = 5000;
server.listen(port, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port, networks: data.ids.length })}\n`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
