/**
 * The write rows. Every PATCH must really write: a connection sends a network the rpc_urls value it
 * does not hold (two values, alternating per network, flipped when a 200 confirms the write), so no
 * request is answered from an unchanged file. Each connection owns its networks through autocannon's
 * setupClient; the one-network row sends If-Match with the newest ETag any connection has seen and
 * checks afterwards that the successful writes form one unbroken chain of versions (none lost).
 */
import type autocannon from 'autocannon';
import { describe, measure, type Timing } from './load.js';
import { loadRow, type Row } from './results.js';
import type { Server } from './servers.js';

const BODIES = [
  JSON.stringify({
    rpc_urls: ['https://patch-a.example.com/rpc', { url: 'https://patch-a-backup.example.org/rpc', weight: 40 }],
  }),
  JSON.stringify({
    rpc_urls: ['https://patch-b.example.com/rpc', { url: 'https://patch-b-backup.example.org/rpc', weight: 60 }],
  }),
];
const JSON_HEADERS = { 'content-type': 'application/json' };

function header(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return String(value);
  return undefined;
}

export function itemPath(server: Server, id: string): string {
  return server.name === 'json-server' ? `/networks/${id}` : `/api/v1/networks/${id}`;
}

/**
 * Connections that cycle through their own networks. `idsFor(i)` gives connection i its ids; the
 * state of which body each network holds lives across runs, so a new run never repeats a value.
 * With `sentAtHeader`, each request carries the time the client made it (process.hrtime, ns: one
 * clock for every process here), for tracing a write step by step.
 */
export function alternatingClients(
  server: Server,
  idsFor: (connection: number) => string[],
  sentAtHeader?: string,
): (client: autocannon.Client) => void {
  const holds = new Map<string, number>();
  let connection = 0;
  return (client) => {
    const ids = idsFor(connection++);
    let turn = 0;
    let inFlight = '';
    client.setRequests([
      {
        method: 'PATCH',
        headers: JSON_HEADERS,
        setupRequest: (req) => {
          inFlight = ids[turn++ % ids.length] as string;
          const next = 1 - (holds.get(inFlight) ?? 1);
          const headers =
            sentAtHeader === undefined
              ? req.headers
              : { ...req.headers, [sentAtHeader]: String(process.hrtime.bigint()) };
          return { ...req, headers, path: itemPath(server, inFlight), body: BODIES[next] };
        },
        onResponse: (status) => {
          if (status === 200) holds.set(inFlight, 1 - (holds.get(inFlight) ?? 1));
        },
      },
    ]);
  };
}

export async function patchRow(
  key: string,
  group: string,
  label: string,
  server: Server,
  connections: number,
  idsFor: (c: number) => string[],
  timing: Timing,
  workload: string,
  sentAtHeader?: string,
): Promise<Row> {
  const result = await measure(
    {
      url: server.url,
      connections,
      setupClient: alternatingClients(server, idsFor, sentAtHeader),
      pid: server.child.pid,
    },
    timing,
  );
  console.log(describe(`${group} | ${label}`, result));
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(
      `${label} ${group}: ${result.non2xx} non-2xx, ${result.errors} errors: ${JSON.stringify(result.statusCodes)}`,
    );
  return loadRow(key, group, label, workload, connections, result);
}

/** PATCH on one connection, cycling through `ids` (distinct networks in several folders); `sentAtHeader`: see alternatingClients. */
export function patchOneConnection(
  server: Server,
  label: string,
  ids: string[],
  timing: Timing,
  sentAtHeader?: string,
): Promise<Row> {
  const path = itemPath(server, '<id>');
  return patchRow(
    `patch-1c/${server.name}`,
    'PATCH, 1 connection, distinct networks',
    label,
    server,
    1,
    () => ids,
    timing,
    `PATCH ${path}, ${ids.length} networks in turn`,
    sentAtHeader,
  );
}

/** PATCH on ten connections, each writing its own network. */
export function patchTenDistinct(server: Server, label: string, ids: string[], timing: Timing): Promise<Row> {
  const path = itemPath(server, '<id>');
  return patchRow(
    `patch-10c/${server.name}`,
    'PATCH, 10 connections, 10 distinct networks',
    label,
    server,
    10,
    (c) => [ids[c % ids.length] as string],
    timing,
    `PATCH ${path}, one network per connection`,
  );
}

async function currentEtag(server: Server, id: string): Promise<string> {
  const res = await fetch(server.url + itemPath(server, id));
  await res.arrayBuffer();
  const etag = res.headers.get('etag');
  if (etag === null) throw new Error(`no ETag on GET ${id}`);
  return etag;
}

/** Ten connections PATCH one network with If-Match; counts 200/412 and checks no write was lost. */
export async function patchOneNetworkIfMatch(server: Server, label: string, id: string, timing: Timing): Promise<Row> {
  let latest = await currentEtag(server, id);
  const first = latest;
  const successors = new Map<string, string>(); // If-Match of a 200 -> ETag it produced
  let lost = 0;
  let seq = 0;
  const setupClient = (client: autocannon.Client): void => {
    let sent = '';
    client.setRequests([
      {
        method: 'PATCH',
        path: itemPath(server, id),
        setupRequest: (req) => {
          sent = latest;
          const body = JSON.stringify({ rpc_urls: [`https://w-${seq++}.example.com/rpc`] }); // unique: every 200 wrote
          return { ...req, headers: { ...JSON_HEADERS, 'if-match': sent }, body };
        },
        onResponse: (status, _body, _context, headers) => {
          const etag = header(headers as Record<string, unknown>, 'etag');
          if (status === 200 && etag !== undefined) {
            if (successors.has(sent)) lost++; // two writes accepted on the same version
            successors.set(sent, etag);
          }
          if (etag !== undefined && (status === 200 || status === 412)) latest = etag;
        },
      },
    ]);
  };
  const result = await measure({ url: server.url, connections: 10, setupClient, pid: server.child.pid }, timing);
  console.log(describe(`PATCH, 10 connections, one network, If-Match | ${label}`, result));
  // Follow the versions from the first ETag through the accepted writes. A run's last requests
  // may be written after autocannon stopped listening, so the chain may stop short of the end.
  let at = first;
  let chain = 0;
  while (successors.has(at) && chain <= successors.size) {
    at = successors.get(at) as string;
    chain++;
  }
  const codes = result.statusCodes;
  const other = Object.entries(codes)
    .filter(([c]) => c !== '200' && c !== '412')
    .reduce((n, [, v]) => n + v, 0);
  const row = loadRow(
    `patch-one/${server.name}`,
    'PATCH, 10 connections, one network, If-Match',
    label,
    `PATCH ${itemPath(server, id)} with If-Match`,
    10,
    result,
  );
  const ok200 = codes['200'] ?? 0;
  const share = ok200 / Math.max(1, ok200 + (codes['412'] ?? 0));
  row.note =
    `best run: ${ok200} x 200 (${(share * 100).toFixed(1)}%, ${((result.reqPerSec * ok200) / Math.max(1, result.total)).toFixed(0)} writes/s), ` +
    `${codes['412'] ?? 0} x 412, ${other} other, ${result.errors} errors; all runs: ${successors.size + lost} accepted writes, ` +
    `${lost} on a version another write had already replaced (lost updates), ${chain} in one unbroken chain from the first version`;
  row.value = lost + other + result.errors;
  row.unit = 'problems';
  return row;
}

/**
 * The server's CPU per PATCH on one connection (issue 51: <= 3 ms): its cpuUsage delta (user + system,
 * read from /proc around each run) over the requests answered, from `row` (patchOneConnection's), each run's figure in the note.
 */
export function patchCpuRow(row: Row): Row {
  const perRun = (row.runs ?? []).map((r) => r.cpuUsPerReq).filter((us): us is number => us !== undefined);
  return {
    key: `patch-cpu/${row.key.split('/')[1] ?? 'netcfg'}`,
    group: 'PATCH CPU per request, 1 connection',
    server: row.server,
    workload: row.workload,
    connections: 1,
    value: (row.cpuUsPerReq ?? NaN) / 1000,
    unit: 'ms',
    note: `runs: ${perRun.map((us) => (us / 1000).toFixed(2)).join(', ')} ms`,
  };
}
