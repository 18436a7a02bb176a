/**
 * The error responses of the OpenAPI document (openapi.ts): one example sentence per error code, and
 * the responses of a route grouped by status, as error-handler.ts answers them; with the two helpers
 * every part of the document builds its responses from (a `$ref` to a schema, a JSON response, a success's body).
 */
import { BODY_LIMIT_BYTES, STATUS_OF } from '../error-handler.js';
import type { ErrorCode } from '../../errors.js';
import type { JsonSchema } from '../../store/index.js';

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export function json(schema: JsonSchema, example: unknown, description: string): JsonSchema {
  return { description, content: { 'application/json': { schema, example } } };
}

/**
 * The body of every success, `{success: true, data, error: null}`, with the fields a route adds beside `data`
 * (`pagination`, `lease`, ...); those are required unless `moreRequired` names fewer.
 */
export function envelope(
  data: JsonSchema,
  more: Record<string, JsonSchema> = {},
  moreRequired: string[] = Object.keys(more),
): JsonSchema {
  return {
    type: 'object',
    required: ['success', 'data', 'error', ...moreRequired],
    properties: { success: { const: true }, data, error: { type: 'null' }, ...more },
  };
}

function errorResponse(code: ErrorCode, message: string): JsonSchema {
  return json(ref('Error'), { success: false, data: null, error: message, code }, `${code}: ${message}`);
}

const ERROR_EXAMPLES: Partial<Record<ErrorCode, string>> = {
  INVALID_ID: '"evm" is not a network id; an id is <family>:<name>.',
  INVALID_QUERY: 'per_page must be a whole number from 1 to 100; got "0".',
  VALIDATION_FAILED: 'The request body is invalid: rpc_urls is required.',
  MALFORMED_JSON: 'The request body is not valid JSON.',
  UNAUTHORIZED: 'Missing or wrong API key; send "Authorization: Bearer <API_KEY>".',
  FORBIDDEN: "This needs a token with the write role; relayer-eu's role is read.",
  NETWORK_NOT_FOUND: 'Network evm:nope was not found.',
  NETWORK_EXISTS: 'evm:optimism exists already (evm/optimism.yaml); PATCH it instead. Nothing was written.',
  FILE_INVALID: 'evm/sepolia.yaml is not valid YAML, so it cannot be edited safely.',
  PROPOSAL_BRANCH_MOVED:
    'netcfg/relayer-eu/evm-sepolia was moved on origin by someone else while this proposal was pushed; nothing was changed.',
  PRECONDITION_FAILED: 'evm:sepolia has changed since the ETag in If-Match was read.',
  PAYLOAD_TOO_LARGE: `The request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.`,
  UNSUPPORTED_MEDIA_TYPE: 'The body must be JSON.',
  EXPORT_INCOMPLETE: 'strict=true: 1 thing(s) would be left out of the export (see details); nothing was exported.',
  PRECONDITION_REQUIRED: 'This server requires If-Match on PATCH.',
  STORAGE_UNAVAILABLE: 'The disk refused to write evm/sepolia.yaml (ENOSPC); the file is unchanged.',
  GIT_REMOTE_UNAVAILABLE:
    'The change could not be pushed to origin/main (unable to connect); nothing was changed, retry later.',
  FORGE_UNAVAILABLE: 'GitHub (https://api.github.com) is rate-limiting the token (403); retry in 60 s.',
  FORGE_REFUSED: 'GitHub (https://api.github.com) refused the token (401: Bad credentials); check GIT_FORGE_TOKEN.',
  ROUTE_NOT_FOUND: 'No route GET /nope.',
  METHOD_NOT_ALLOWED: 'DELETE is not allowed on /api/v1/networks; use HEAD, GET.',
  RELAYER_NOT_FOUND: 'No relayer eu in RELAYER_SYNC_FILE; GET /api/v1/relayers lists them.',
  NOT_LEASE_HOLDER: 'This replica does not hold the relayer lease; netcfg-b-1 does: ask it.',
  LOOP_DETECTED: 'This request came from this netcfg itself: a relayer target points at it.',
  INTERNAL: 'Something went wrong inside netcfg; the error has been logged.',
};

/** Responses for a list of error codes, grouped by status (several codes can share one). */
export function errors(...codes: ErrorCode[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const code of [...codes, 'INTERNAL' as const]) {
    const status = String(STATUS_OF[code]);
    const message = ERROR_EXAMPLES[code] ?? code;
    if (out[status]) (out[status] as { description: string }).description += `; ${code}`;
    else out[status] = errorResponse(code, message);
  }
  return out;
}
