/**
 * The live prober's part of the OpenAPI document (openapi.ts merges it): what each RPC URL of a
 * network answered, and every probed network's URLs counted by status.
 */
import { envelope, errors, json } from './openapi-errors.js';
import { ID_PARAM } from './openapi-networks.js';
import type { JsonSchema } from '../../store/index.js';

const auth = [{ bearer: [] }];

export const RPC_HEALTH_PATHS: Record<string, Record<string, JsonSchema>> = {
  '/api/v1/networks/{network_id}/rpc-health': {
    get: {
      operationId: 'networkRpcHealth',
      summary:
        "What each RPC URL of the network answered at the live prober's last look (only with RPC_PROBE_INTERVAL_MS)",
      security: auth,
      parameters: [ID_PARAM],
      responses: {
        200: json(
          envelope({
            type: 'array',
            items: {
              type: 'object',
              required: ['index', 'url', 'status'],
              properties: {
                index: {
                  type: 'integer',
                  minimum: 0,
                  description: "The URL's place in the network's rpc_urls: what a client matches on",
                },
                url: {
                  type: 'string',
                  description: 'The URL redacted: user-info, query values and key-like path segments are ***',
                },
                status: { enum: ['pending', 'ok', 'wrong_chain', 'lagging', 'unreachable', 'bad_response'] },
              },
            },
          }),
          undefined,
          'One entry per URL, in the order of rpc_urls.',
        ),
        ...errors('INVALID_ID', 'UNAUTHORIZED', 'NETWORK_NOT_FOUND'),
      },
    },
  },
  '/api/v1/rpc-health': {
    get: {
      operationId: 'rpcHealthCounts',
      summary: "Each probed network's URLs counted by status (only with RPC_PROBE_INTERVAL_MS)",
      security: auth,
      responses: {
        200: json(
          envelope({
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'counts'],
              properties: {
                id: { type: 'string' },
                counts: { type: 'object', additionalProperties: { type: 'integer' } },
              },
            },
          }),
          undefined,
          'One entry per probed network.',
        ),
        ...errors('UNAUTHORIZED'),
      },
    },
  },
};
