/**
 * The read rows: GET one network and a list page (per_page 10 and 100) against every server of the
 * 1,000 fixture and, for the pages, netcfg serving 100,000. The servers of a row take turns run by
 * run. Before any load, each server's answer is checked against netcfg's, so every row measures
 * the same bytes (json-server answers bare objects, without the envelope: that is its format).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, measureInterleaved, type Timing } from './load.js';
import { loadRow, type Row } from './results.js';
import type { Server } from './servers.js';

export const LIST_PAGE = 3;

const BENCH_TOKEN = 'bench-token-0123456789abcdef0123456789abcdef';

/**
 * netcfg reads as deployed: a tokens file of 100 named tokens (API_TOKENS_FILE) and a token on every
 * request, so the rows pay the lookup; the baselines have no auth to pay for. The bench's token is an
 * admin's, so it also sees the watcher's state in readiness (waitWatching); the fixtures hold no secret,
 * so it is served the same bytes a read token is.
 */
export function readTokens(dir: string): { env: Record<string, string>; headers: Record<string, string> } {
  const sha = (token: string): string => createHash('sha256').update(token).digest('hex');
  const entries = Array.from(
    { length: 99 },
    (_, i) => `  - name: other-${i}\n    sha256: "${sha(`other-${i}`)}"\n    role: read\n`,
  );
  entries.push(`  - name: bench-operator\n    sha256: "${sha(BENCH_TOKEN)}"\n    role: admin\n`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'bench-tokens.yaml');
  writeFileSync(file, `tokens:\n${entries.join('')}`);
  return { env: { API_TOKENS_FILE: file }, headers: { authorization: `Bearer ${BENCH_TOKEN}` } };
}

export interface ReadTargets {
  raw: Server;
  koa: Server;
  jsonServer: Server;
  netcfg: Server;
  /** netcfg serving 100,000 networks, for the list rows. */
  netcfgLarge?: Server;
}

export type ReadKind = 'get-one' | 'list-10' | 'list-100';

export function readPath(kind: ReadKind, server: Server, id: string): string {
  const isJsonServer = server.name === 'json-server';
  if (kind === 'get-one') return isJsonServer ? `/networks/${id}` : `/api/v1/networks/${id}`;
  const perPage = kind === 'list-10' ? 10 : 100;
  return isJsonServer
    ? `/networks?_page=${LIST_PAGE}&_limit=${perPage}`
    : `/api/v1/networks?page=${LIST_PAGE}&per_page=${perPage}`;
}

const GROUPS: Record<ReadKind, string> = {
  'get-one': 'GET one network (with ETag)',
  'list-10': 'GET list page, per_page 10',
  'list-100': 'GET list page, per_page 100',
};

async function getJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; etag: string | null }> {
  const res = await fetch(url, { headers });
  return { status: res.status, text: await res.text(), etag: res.headers.get('etag') };
}

/** Throws unless every server answers the same network and pages as netcfg. */
export async function checkSameAnswers(t: ReadTargets, id: string): Promise<void> {
  // The revision counts index changes; only its presence is part of the shape.
  const shape = (text: string): string => text.replace(/"revision":\d+/, '"revision":0');
  for (const kind of ['get-one', 'list-10', 'list-100'] as ReadKind[]) {
    const ours = await getJson(t.netcfg.url + readPath(kind, t.netcfg, id), t.netcfg.headers);
    if (ours.status !== 200) throw new Error(`netcfg answered ${ours.status} to ${kind}: ${ours.text.slice(0, 300)}`);
    if (kind === 'get-one' && ours.etag === null) throw new Error('netcfg sent no ETag');
    for (const other of [t.raw, t.koa]) {
      const theirs = await getJson(other.url + readPath(kind, other, id));
      if (shape(theirs.text) !== shape(ours.text)) {
        throw new Error(
          `${other.name} and netcfg answer ${kind} differently:\n${theirs.text.slice(0, 400)}\n${ours.text.slice(0, 400)}`,
        );
      }
    }
    const js = await getJson(t.jsonServer.url + readPath(kind, t.jsonServer, id));
    const data = (JSON.parse(ours.text) as { data: unknown }).data;
    if (!isDeepStrictEqual(JSON.parse(js.text), data))
      throw new Error(`json-server and netcfg serve different data for ${kind}`);
  }
}

/** Every read row: for each kind, all servers in turn (raw, Koa, json-server, netcfg, netcfg 100k). */
export async function readRows(t: ReadTargets, id: string, timing: Timing): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kind of ['get-one', 'list-10', 'list-100'] as ReadKind[]) {
    const servers: Array<[Server, string, string]> = [
      [t.raw, 'raw node:http (pre-serialised)', kind],
      [t.koa, 'bare Koa + @koa/router', kind],
      [t.jsonServer, 'json-server 0.17.4', kind],
      [t.netcfg, 'netcfg (1,000 networks)', kind],
    ];
    if (t.netcfgLarge && kind !== 'get-one') servers.push([t.netcfgLarge, 'netcfg (100,000 networks)', `${kind}@100k`]);
    const results = await measureInterleaved(
      servers.map(([server]) => ({
        url: server.url + readPath(kind, server, id),
        headers: server.headers,
        connections: 10,
        pid: server.child.pid,
      })),
      timing,
    );
    results.forEach((result, i) => {
      const [server, label, key] = servers[i] as [Server, string, string];
      console.log(describe(`${GROUPS[kind]} | ${label}`, result));
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${label} ${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      rows.push(loadRow(`${key}/${server.name}`, GROUPS[kind], label, `GET ${readPath(kind, server, id)}`, 10, result));
    });
  }
  return rows;
}
