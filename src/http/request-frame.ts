/**
 * The frame around every request: its id, the error envelope for whatever went wrong, and one
 * access-log line (method, path, status, duration, id), in a single middleware because it runs on
 * every request. The id comes from X-Request-Id when it is sane, else is generated, and is echoed
 * back so a client's logs and ours can be joined. Headers are never logged, so neither is the key.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { logRequest } from '../log.js';
import { respondWithError, unanswered } from './error-handler.js';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestFrame(log: Logger) {
  return async function frame(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    const given = ctx.req.headers['x-request-id'];
    const requestId = typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      const missing = unanswered(ctx);
      if (missing) respondWithError(ctx, missing, log);
    } catch (err) {
      respondWithError(ctx, err, log);
    }
    const ms = Math.round((performance.now() - started) * 100) / 100;
    logRequest(log, { reqId: requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms });
  };
}
