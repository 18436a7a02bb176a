/**
 * Query parameters of the list: strict integers only, each error naming its parameter, and the
 * RFC 8288 Link header that lets a client walk the pages.
 */
import type { Context } from 'koa';
import { NetcfgError, type ErrorDetail } from '../errors.js';
import { ID_PART } from '../store/index.js';

export interface PageQuery {
  page: number;
  perPage: number;
  family: string | undefined;
}

export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 100;
const MAX_PAGE = 1_000_000_000;

function integer(query: Context['query'], name: string, fallback: number, max: number, details: ErrorDetail[]): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && /^[0-9]{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    const shown = Array.isArray(raw) ? raw.join(',') : raw;
    details.push({
      pointer: `/${name}`,
      message: `${name} must be a whole number from 1 to ${max}; got "${shown.slice(0, 40)}".`,
    });
    return fallback;
  }
  return value;
}

export function parsePageQuery(ctx: Context): PageQuery {
  const details: ErrorDetail[] = [];
  const query = ctx.query;
  const page = integer(query, 'page', 1, MAX_PAGE, details);
  const perPage = integer(query, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE, details);
  const rawFamily = query.network_type;
  let family: string | undefined;
  if (rawFamily !== undefined) {
    if (typeof rawFamily !== 'string' || !ID_PART.test(rawFamily)) {
      details.push({
        pointer: '/network_type',
        message: 'network_type must be a network family such as evm, solana or stellar.',
      });
    } else {
      family = rawFamily;
    }
  }
  if (details.length > 0) {
    throw new NetcfgError('INVALID_QUERY', details.map((d) => d.message).join(' '), { details });
  }
  return { page, perPage, family };
}

export function totalPages(total: number, perPage: number): number {
  return Math.ceil(total / perPage);
}

/** first/prev/next/last links, relative to the request path, keeping the filter. */
export function linkHeader(path: string, query: PageQuery, total: number): string {
  const last = Math.max(1, totalPages(total, query.perPage));
  const href = (page: number): string => {
    const filter = query.family === undefined ? '' : `&network_type=${query.family}`;
    return `<${path}?page=${page}&per_page=${query.perPage}${filter}>`;
  };
  const links = [`${href(1)}; rel="first"`];
  if (query.page > 1) links.push(`${href(Math.min(query.page - 1, last))}; rel="prev"`);
  if (query.page < last) links.push(`${href(query.page + 1)}; rel="next"`);
  links.push(`${href(last)}; rel="last"`);
  return links.join(', ');
}
