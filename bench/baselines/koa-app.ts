/**
 * The framework ceiling: bare Koa 3 + @koa/router, no middleware, answering the same objects from
 * a Map with JSON.stringify on every request (GET one, and a page of the sorted ids). netcfg does
 * everything this does plus its product work (request id, access log, Link header, validation of
 * the query), so beating it means the per-request work was moved out of the request.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { baselineEnv, itemEnvelope, loadNetworks, NOT_FOUND, pageArgs, pageEnvelope } from './load-networks.js';

const { port, db } = baselineEnv();
const data = loadNetworks(db);
const app = new Koa();
const router = new Router();

router.get('/api/v1/networks/:network_id', (ctx) => {
  const id = String(ctx.params.network_id);
  const network = data.byId.get(id);
  ctx.type = 'application/json';
  if (!network) {
    ctx.status = 404;
    ctx.body = NOT_FOUND;
    return;
  }
  ctx.set('ETag', data.etags.get(id) ?? '');
  ctx.body = itemEnvelope(network);
});

router.get('/api/v1/networks', (ctx) => {
  const args = pageArgs(ctx.query.page as string | undefined, ctx.query.per_page as string | undefined);
  ctx.type = 'application/json';
  if (!args) {
    ctx.status = 400;
    ctx.body = NOT_FOUND;
    return;
  }
  ctx.body = pageEnvelope(data, args);
});

app.use(router.routes());
app.use(router.allowedMethods());
const server = app.listen(port, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port, networks: data.ids.length })}\n`),
);
server.keepAliveTimeout = 5000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
