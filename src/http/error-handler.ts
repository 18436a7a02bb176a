/**
 * The single place where errors become responses (request-frame.ts calls it around every request). Every
 * error, a 404 for an unknown route or a 405 included, leaves as the envelope
 * `{success: false, data: null, error, code, details?}`. Only NetcfgError and the 4xx errors of
 * koa-bodyparser are the client's doing; anything else is logged and answered 500 without internals.
 */
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { NetcfgError, type ErrorCode } from '../errors.js';

/** The largest request body a PATCH may send: a network's rpc_urls are a few hundred bytes. */
export const BODY_LIMIT_BYTES = 64 * 1024;
const TOO_LARGE = `The request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.`;

export const STATUS_OF: Record<ErrorCode, number> = {
  INVALID_ID: 400,
  INVALID_QUERY: 400,
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NETWORK_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  RELAYER_NOT_FOUND: 404,
  NOT_LEASE_HOLDER: 409,
  METHOD_NOT_ALLOWED: 405,
  FILE_INVALID: 409,
  NETWORK_EXISTS: 409,
  PROPOSAL_BRANCH_MOVED: 409,
  PRECONDITION_FAILED: 412,
  EXPORT_INCOMPLETE: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PRECONDITION_REQUIRED: 428,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  LOCK_TIMEOUT: 503,
  STORAGE_UNAVAILABLE: 503,
  GIT_REMOTE_UNAVAILABLE: 503,
  FORGE_UNAVAILABLE: 503,
  FORGE_REFUSED: 502,
  NOT_READY: 503,
  LOOP_DETECTED: 508,
};

interface HttpishError extends Error {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/** Maps errors raised by koa-bodyparser / raw-body (they carry `status` and `type`). */
function fromHttpError(err: HttpishError): NetcfgError | null {
  const status = err.status ?? err.statusCode;
  if (status === undefined || status < 400 || status >= 500) return null;
  switch (err.type) {
    case 'entity.too.large':
      return new NetcfgError('PAYLOAD_TOO_LARGE', TOO_LARGE);
    case 'entity.parse.failed':
      return new NetcfgError('MALFORMED_JSON', `The request body is not valid JSON: ${err.message}.`);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new NetcfgError('UNSUPPORTED_MEDIA_TYPE', `${err.message}; send UTF-8 JSON.`);
    default:
      // co-body throws JSON.parse's SyntaxError with status 400 and no type.
      if (status === 400 && err.name === 'SyntaxError')
        return new NetcfgError('MALFORMED_JSON', `The request body is not valid JSON: ${err.message}.`);
      if (status === 415) return new NetcfgError('UNSUPPORTED_MEDIA_TYPE', err.message);
      if (status === 413) return new NetcfgError('PAYLOAD_TOO_LARGE', TOO_LARGE);
      return new NetcfgError(
        'BAD_REQUEST',
        err.expose === false ? 'The request could not be read.' : `The request could not be read: ${err.message}.`,
      );
  }
}

/** A 404, 405 (with Allow) or 501 that @koa/router left without a body, as an error; else null. */
export function unanswered(ctx: Context): NetcfgError | null {
  if (ctx.body !== undefined && ctx.body !== null) return null;
  if (ctx.status === 405)
    return new NetcfgError(
      'METHOD_NOT_ALLOWED',
      `${ctx.method} is not allowed on ${ctx.path}; use ${ctx.response.get('Allow')}.`,
    );
  if (ctx.status === 501) {
    ctx.remove('Allow'); // the router sets an empty one for a method it does not know
    return new NetcfgError('NOT_IMPLEMENTED', `${ctx.method} is not supported by netcfg.`);
  }
  if (ctx.status === 404)
    return new NetcfgError(
      'ROUTE_NOT_FOUND',
      `No route ${ctx.method} ${ctx.path}; the API lives under /api/v1 (see the README).`,
    );
  return null;
}

/** Turns anything thrown while serving into its status and the error envelope. */
export function respondWithError(ctx: Context, caught: unknown, log: Logger): void {
  let err: NetcfgError;
  if (caught instanceof NetcfgError) err = caught;
  else {
    err =
      fromHttpError(caught as HttpishError) ??
      new NetcfgError('INTERNAL', 'Something went wrong inside netcfg; the error has been logged.');
    if (err.code === 'INTERNAL') log.error({ err: caught, req_id: ctx.state.requestId }, 'unhandled error');
  }
  const status = STATUS_OF[err.code];
  ctx.status = status;
  if (err.etag !== undefined) ctx.set('ETag', err.etag);
  if (err.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.retryAfterSeconds));
  if (status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="netcfg"');
  ctx.type = 'application/json';
  ctx.body = JSON.stringify({
    success: false,
    data: null,
    error: err.message,
    code: err.code,
    ...(err.details && err.details.length > 0 ? { details: err.details } : {}),
  });
  if (status >= 500 && err.code !== 'INTERNAL') log.warn({ code: err.code, req_id: ctx.state.requestId }, err.message);
}
