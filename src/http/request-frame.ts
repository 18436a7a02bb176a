/**
 * The frame around every request, as one middleware: its id, the loop guard, the error envelope,
 * one access-log line and the request metrics. One frame rather than three stacked middlewares:
 * each layer of Koa's chain is a promise and a closure on every request, and a read does little else.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { logRequest } from '../log.js';
import { actorLabel, type Actor } from '../store/index.js';
import { respondWithError, unanswered } from './error-handler.js';
import { refuseOwnRequest } from './loop-guard.js';
import { templateOf, type MetricsView } from './routes/metrics.js';

export interface FrameOptions {
  /** Told each request's route template, method, status and duration, once its status is the one sent. */
  metrics?: MetricsView | undefined;
  /** This process's instance id: a request carrying it is refused (loop-guard.ts). */
  instanceId?: string | undefined;
}

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id comes from X-Request-Id when it is sane, else is generated, and is echoed back so a
 * client's logs and ours can be joined. Headers are never logged, so neither is the key.
 */
export function requestFrame(log: Logger, options: FrameOptions = {}) {
  const { metrics, instanceId } = options;
  return async function frame(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    const given = ctx.req.headers['x-request-id'];
    const requestId = typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      if (instanceId !== undefined) refuseOwnRequest(ctx, instanceId);
      await next();
      const missing = unanswered(ctx);
      if (missing) respondWithError(ctx, missing, log);
    } catch (err) {
      respondWithError(ctx, err, log);
    }
    const ms = performance.now() - started;
    const actor = ctx.state.actor as Actor | undefined;
    logRequest(log, {
      reqId: requestId,
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      ms: Math.round(ms * 100) / 100,
      actor: actor && actorLabel(actor),
    });
    metrics?.observeRequest(templateOf(ctx), ctx.method, ctx.status, ms / 1000);
  };
}
