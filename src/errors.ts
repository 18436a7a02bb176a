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
  | 'NOT_READY'
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
  cause?: unknown;
}

export class NetcfgError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly etag: string | undefined;

  constructor(code: ErrorCode, message: string, options: NetcfgErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NetcfgError';
    this.code = code;
    this.details = options.details;
    this.etag = options.etag;
  }
}
