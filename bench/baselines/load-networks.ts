/**
 * The data every HTTP baseline serves: the networks of one db.json (the file json-server reads),
 * sorted by id like netcfg's pages, each with a precomputed ETag. The envelopes are built here
 * exactly as netcfg builds them, so every server answers the same bytes for the same request.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface Loaded {
  ids: string[];
  byId: Map<string, Record<string, unknown>>;
  etags: Map<string, string>;
}

export function loadNetworks(dbJson: string): Loaded {
  const db = JSON.parse(readFileSync(dbJson, 'utf8')) as { networks: Array<Record<string, unknown>> };
  const byId = new Map<string, Record<string, unknown>>();
  const etags = new Map<string, string>();
  for (const network of db.networks) {
    const id = String(network.id);
    byId.set(id, network);
    etags.set(id, `"${createHash('sha256').update(JSON.stringify(network)).digest('base64url')}"`);
  }
  return { ids: [...byId.keys()].sort(), byId, etags };
}

export interface PageArgs {
  page: number;
  perPage: number;
}

/** page and per_page as netcfg reads them (defaults 1 and 10, per_page at most 100); null if invalid. */
export function pageArgs(page: string | null | undefined, perPage: string | null | undefined): PageArgs | null {
  const p = page === null || page === undefined ? 1 : Number(page);
  const n = perPage === null || perPage === undefined ? 10 : Number(perPage);
  if (!Number.isInteger(p) || !Number.isInteger(n) || p < 1 || n < 1 || n > 100) return null;
  return { page: p, perPage: n };
}

/** The list envelope netcfg answers, built with one JSON.stringify of the page's objects. */
export function pageEnvelope(data: Loaded, args: PageArgs): string {
  const start = (args.page - 1) * args.perPage;
  const records = data.ids.slice(start, start + args.perPage).map((id) => data.byId.get(id));
  const total = data.ids.length;
  return JSON.stringify({
    success: true,
    data: records,
    error: null,
    pagination: {
      current_page: args.page,
      per_page: args.perPage,
      total_items: total,
      total_pages: Math.ceil(total / args.perPage),
    },
    revision: total, // netcfg's revision after loading N files is N
  });
}

export function itemEnvelope(network: Record<string, unknown>): string {
  return JSON.stringify({ success: true, data: network, error: null });
}

export const NOT_FOUND = JSON.stringify({
  success: false,
  data: null,
  error: 'Network not found.',
  code: 'NETWORK_NOT_FOUND',
});

/** PORT and DB from the environment; every baseline prints one line when it listens. */
export function baselineEnv(): { port: number; db: string } {
  const port = Number(process.env.PORT);
  const db = process.env.DB ?? '';
  if (!Number.isInteger(port) || db === '') throw new Error('PORT and DB must be set');
  return { port, db };
}
