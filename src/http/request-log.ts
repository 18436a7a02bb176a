/**
 * Request id and the access log: one JSON line per request (method, path, status, duration, id),
 * written after the response. The id comes from X-Request-Id when it is sane, else is generated,
 * and is echoed back so a client's logs and ours can be joined. Headers are never logged, so
 * neither is the API key.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestLog(log: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    const given = ctx.get('X-Request-Id');
    const requestId = SANE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ req_id: requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100 }, 'request');
    }
  };
}
