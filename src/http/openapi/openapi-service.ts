/**
 * The service's part of the OpenAPI document (openapi.ts merges it): liveness and readiness, who a
 * token is, the metrics, and the document and JSON Schemas themselves.
 */
import { envelope, errors, json, ref } from './openapi-errors.js';
import { ME_PROPOSALS } from './openapi-proposals.js';
import type { JsonSchema } from '../../store/index.js';

const auth = [{ bearer: [] }];

export const HEALTH_PATHS: Record<string, Record<string, JsonSchema>> = {
  '/api/v1/health': {
    get: {
      operationId: 'health',
      summary: 'Liveness',
      responses: {
        200: {
          description: 'The process serves.',
          content: { 'text/plain': { schema: { type: 'string', const: 'OK' }, example: 'OK' } },
        },
      },
    },
  },
  '/api/v1/ready': {
    get: {
      operationId: 'readiness',
      summary: 'Readiness: 503 until the index has loaded, when the folder is missing or the watcher failed',
      description:
        'Open to all; what the body tells depends on the token sent, the status code never does. ' +
        'With API_KEY or API_TOKENS_FILE set, no token (or a wrong one: never a 401 here) gets ready, status, timestamp ' +
        "and each component's status and counts (a list as `<key>_count`); a read or write token adds the index component whole; " +
        'an admin token, everything. With no token configured, everyone gets everything.',
      responses: {
        200: json(ref('Readiness'), undefined, 'Ready (healthy or degraded).'),
        503: json(ref('Readiness'), undefined, 'Not ready.'),
      },
    },
  },
};

export const ACCESS_PATHS: Record<string, Record<string, JsonSchema>> = {
  '/api/v1/access/me': {
    get: {
      operationId: 'accessMe',
      summary:
        "Who the request's token is: its name, role, networks and whether it is shown secrets (read role); " +
        'with no token configured, an admin without a name who is shown no secret',
      security: auth,
      responses: {
        200: json(
          ref('MeEnvelope'),
          {
            success: true,
            data: {
              name: 'relayer-eu',
              role: 'read',
              networks: ['evm:*'],
              reveal_secrets: false,
              proposals: { enabled: false, propose_only: false },
            },
            error: null,
          },
          'The caller.',
        ),
        ...errors('UNAUTHORIZED'),
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      summary:
        "netcfg's metrics in Prometheus' text format (docs/metrics.md). Open without a token configured; " +
        'with tokens, a read token whose scope is every network (the metrics name them all): a scoped token ' +
        'is 403',
      security: auth,
      responses: {
        200: {
          description: 'Prometheus text format 0.0.4; no label or value holds a secret, a key or a token name.',
          content: {
            'text/plain; version=0.0.4': {
              schema: { type: 'string' },
              example: '# TYPE netcfg_networks_served gauge\nnetcfg_networks_served 3\n',
            },
          },
        },
        ...errors('UNAUTHORIZED', 'FORBIDDEN'),
      },
    },
  },
};

export const DOCUMENT_PATHS: Record<string, Record<string, JsonSchema>> = {
  '/api/v1/openapi.json': {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      responses: {
        200: json({ type: 'object' }, undefined, 'OpenAPI 3.1'),
      },
    },
  },
  '/api/v1/schemas/network.json': {
    get: {
      operationId: 'networkSchema',
      summary: 'JSON Schema of a network file',
      responses: { 200: json({ type: 'object' }, undefined, 'JSON Schema 2020-12') },
    },
  },
  '/api/v1/schemas/update-network.json': {
    get: {
      operationId: 'updateNetworkSchema',
      summary: 'JSON Schema of a PATCH body',
      responses: { 200: json({ type: 'object' }, undefined, 'JSON Schema 2020-12') },
    },
  },
};

export const SERVICE_SCHEMAS: Record<string, JsonSchema> = {
  Me: {
    type: 'object',
    required: ['name', 'role', 'networks', 'reveal_secrets', 'proposals'],
    additionalProperties: false,
    properties: {
      name: {
        type: ['string', 'null'],
        description: "The token's name (api-key for API_KEY); null when no token is configured",
      },
      role: { enum: ['read', 'propose', 'write', 'admin'] },
      networks: {
        oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }],
        description: 'Globs over the ids the token may see; null: every network',
      },
      reveal_secrets: { type: 'boolean' },
      proposals: ME_PROPOSALS,
    },
  },
  MeEnvelope: envelope(ref('Me')),
  Readiness: {
    type: 'object',
    required: ['ready', 'status', 'components', 'timestamp'],
    properties: {
      ready: { type: 'boolean' },
      status: { enum: ['healthy', 'degraded', 'unhealthy'] },
      reason: {
        type: 'string',
        description: 'Why it is not healthy; for an admin token (or with no token configured) only',
      },
      components: {
        type: 'object',
        description:
          'Each part by name (index, watcher, storage, git, rpc, relayers, access, proposals), each with its status; its details by tier',
      },
      timestamp: { type: 'string' },
    },
  },
};
