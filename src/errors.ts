/**
 * The one error type of netcfg. The store and the HTTP layer both throw it; a single middleware
 * (src/http/error-handler.ts) turns its `code` into a status and the response envelope, so no
 * handler ever builds an error response by hand.
 */

export type ErrorCode =
  | 'INVALID_ID'
  | 'INVALID_QUERY'
  | 'VALIDATION_FAILED'
  | 'MALFORMED_JSON'
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NETWORK_NOT_FOUND'
  | 'NETWORK_EXISTS'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_IMPLEMENTED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'PRECONDITION_FAILED'
  | 'PRECONDITION_REQUIRED'
  | 'FILE_INVALID'
  | 'PROPOSAL_BRANCH_MOVED'
  | 'EXPORT_INCOMPLETE'
  | 'LOCK_TIMEOUT'
  | 'STORAGE_UNAVAILABLE'
  | 'GIT_REMOTE_UNAVAILABLE'
  | 'FORGE_UNAVAILABLE'
  | 'FORGE_REFUSED'
  | 'NOT_READY'
  | 'RELAYER_NOT_FOUND'
  | 'NOT_LEASE_HOLDER'
  | 'LOOP_DETECTED'
  | 'INTERNAL';

/** Where in the request body (or file) a problem is, as a JSON Pointer, and what to do about it. */
export interface ErrorDetail {
  pointer: string;
  message: string;
}

export interface NetcfgErrorOptions {
  details?: ErrorDetail[];
  /** The network's current ETag, where the client needs it (a 412, a write whose folder sync failed). */
  etag?: string;
  /** Seconds the caller should wait before retrying, where the far side (a rate-limiting forge) said so. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class NetcfgError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly etag: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: NetcfgErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NetcfgError';
    this.code = code;
    this.details = options.details;
    this.etag = options.etag;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
