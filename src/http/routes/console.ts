/**
 * The operator console: `/` is its page and `/console/<file>` its script and stylesheet, served
 * from memory with an ETag and a Content-Security-Policy that allows only this origin (no inline
 * script, no eval, nothing from elsewhere). Not behind API_KEY: the files hold no data; every API
 * call the page makes carries the key.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { ConsoleAssets } from '../../console-assets.js';
import { NetcfgError } from '../../errors.js';

const HEADERS = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

export function consoleRoutes(router: Router, assets: ConsoleAssets | null): void {
  router.get('/', (ctx) => serve(ctx, assets, 'index.html'));
  router.get('/console/:file', (ctx) => serve(ctx, assets, String(ctx.params.file)));
}

function serve(ctx: Context, assets: ConsoleAssets | null, name: string): void {
  if (!assets)
    throw new NetcfgError(
      'ROUTE_NOT_FOUND',
      'The operator console is not built; `make build` builds it (the API is at /api/v1).',
    );
  const asset = assets.get(name);
  if (!asset) throw new NetcfgError('ROUTE_NOT_FOUND', `The console has no file ${JSON.stringify(name.slice(0, 80))}.`);
  ctx.set(HEADERS);
  ctx.etag = asset.etag;
  ctx.type = asset.type;
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = asset.body;
}
