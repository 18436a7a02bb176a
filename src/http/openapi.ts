/**
 * The OpenAPI 3.1 document, built at start from the same JSON Schemas that validate files and
 * PATCH bodies (OpenAPI 3.1 speaks JSON Schema 2020-12), so the published contract cannot drift
 * from what the server enforces. The schemas keep their `$id`, so their internal `$ref`s resolve.
 */
import { STATUS_OF } from './error-handler.js';
import { errors, ref } from './openapi-errors.js';
import { RELAYER_PATHS } from './openapi-relayers.js';
import { addCreatePaths, CREATE_SCHEMAS } from './openapi-create.js';
import {
  ME_PROPOSALS,
  PATCH_PROPOSAL_ERRORS,
  PATCH_PROPOSE_PARAM,
  PATCH_PROPOSED,
  PROPOSAL_PATHS,
  PROPOSAL_SCHEMAS,
} from './openapi-proposals.js';
import type { JsonSchema, Schemas } from '../store/index.js';

const NETWORK_ID = 'https://netcfg.local/schemas/network.schema.json';

const EXAMPLE_NETWORK = {
  id: 'evm:sepolia',
  name: 'sepolia',
  network_type: 'evm',
  rpc_urls: [
    { url: 'https://ethereum-sepolia-rpc.publicnode.com', weight: 100 },
    { url: 'https://sepolia.drpc.org', weight: 50 },
  ],
  chain_id: 11155111,
  symbol: 'ETH',
  is_testnet: true,
};

/** The wire view of a network: the file's fields plus id/name/network_type, rpc_urls as objects. */
function networkSchema(file: JsonSchema): JsonSchema {
  const fileProps = (file.properties ?? {}) as Record<string, unknown>;
  const properties: Record<string, unknown> = {
    id: { type: 'string', description: '<family>:<name>', examples: ['evm:sepolia'] },
    name: { type: 'string' },
    network_type: { type: 'string', description: 'The family folder.' },
    rpc_urls: { type: 'array', items: { $ref: `${NETWORK_ID}#/$defs/servedRpcUrl` } },
  };
  for (const key of Object.keys(fileProps)) {
    if (!(key in properties)) properties[key] = { $ref: `${NETWORK_ID}#/properties/${key}` };
  }
  return {
    type: 'object',
    required: ['id', 'name', 'network_type', 'rpc_urls'],
    properties,
    additionalProperties: true,
  };
}

function json(schema: JsonSchema, example: unknown, description: string): JsonSchema {
  return { description, content: { 'application/json': { schema, example } } };
}

const ID_PARAM = {
  name: 'network_id',
  in: 'path',
  required: true,
  description: '<family>:<name>; the colon may be sent as %3A.',
  schema: { type: 'string' },
  example: 'evm:sepolia',
};
const PAGE_PARAMS = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
];
const ETAG_HEADER = { ETag: { description: 'Strong hash of the file bytes.', schema: { type: 'string' } } };

export function buildOpenApi(schemas: Schemas): JsonSchema {
  const auth = [{ bearer: [] }];
  const paths: Record<string, Record<string, JsonSchema>> = {
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
    '/api/v1/networks': {
      get: {
        operationId: 'listNetworks',
        summary: 'Networks sorted by id, a page at a time',
        security: auth,
        parameters: [...PAGE_PARAMS, { name: 'network_type', in: 'query', schema: { type: 'string' }, example: 'evm' }],
        responses: {
          200: {
            ...json(
              ref('NetworkList'),
              {
                success: true,
                data: [EXAMPLE_NETWORK],
                error: null,
                pagination: { current_page: 1, per_page: 10, total_items: 1, total_pages: 1 },
                revision: 12,
              },
              'A page.',
            ),
            headers: { Link: { description: 'RFC 8288 first/prev/next/last', schema: { type: 'string' } } },
          },
          ...errors('INVALID_QUERY', 'UNAUTHORIZED'),
        },
      },
    },
    '/api/v1/networks/events': {
      get: {
        operationId: 'networkEvents',
        summary:
          'Server-Sent Events: added|modified|deleted {id, etag, revision}; reset when Last-Event-ID is too old; with RPC_PROBE_INTERVAL_MS, rpc_health {id, index, url, status, previous} when a URL changes status (url redacted, index its place in rpc_urls)',
        security: auth,
        parameters: [{ name: 'Last-Event-ID', in: 'header', schema: { type: 'integer' } }],
        responses: {
          200: {
            description: 'An event stream.',
            content: {
              'text/event-stream': {
                schema: { type: 'string' },
                example: 'id: 13\nevent: modified\ndata: {"id":"evm:sepolia","etag":"\\"abc\\"","revision":13}\n\n',
              },
            },
          },
          ...errors('INVALID_QUERY', 'UNAUTHORIZED'),
        },
      },
    },
    '/api/v1/networks/{network_id}': {
      get: {
        operationId: 'getNetwork',
        summary: 'One network',
        security: auth,
        parameters: [ID_PARAM],
        responses: {
          200: {
            ...json(ref('NetworkEnvelope'), { success: true, data: EXAMPLE_NETWORK, error: null }, 'The network.'),
            headers: ETAG_HEADER,
          },
          304: { description: 'Not modified (If-None-Match).' },
          ...errors('INVALID_ID', 'UNAUTHORIZED', 'NETWORK_NOT_FOUND'),
        },
      },
      patch: {
        operationId: 'updateNetwork',
        summary: 'Replace rpc_urls; written atomically to the YAML file, comments kept',
        security: auth,
        parameters: [
          ID_PARAM,
          { name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'ETag from GET, or *.' },
          PATCH_PROPOSE_PARAM,
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: ref('UpdateNetworkRequest'),
              example: { rpc_urls: ['https://rpc.example.com', { url: 'https://backup.example.com', weight: 25 }] },
            },
            'application/merge-patch+json': { schema: ref('UpdateNetworkRequest') },
          },
        },
        responses: {
          200: {
            ...json(
              ref('NetworkEnvelope'),
              { success: true, data: EXAMPLE_NETWORK, error: null },
              'The updated network, durable on disk.',
            ),
            headers: ETAG_HEADER,
          },
          ...PATCH_PROPOSED,
          ...errors(
            'VALIDATION_FAILED',
            'MALFORMED_JSON',
            'INVALID_ID',
            'UNAUTHORIZED',
            'FORBIDDEN',
            'NETWORK_NOT_FOUND',
            'FILE_INVALID',
            'PRECONDITION_FAILED',
            'PAYLOAD_TOO_LARGE',
            'UNSUPPORTED_MEDIA_TYPE',
            'PRECONDITION_REQUIRED',
            'STORAGE_UNAVAILABLE',
            'GIT_REMOTE_UNAVAILABLE',
            ...PATCH_PROPOSAL_ERRORS,
          ),
        },
      },
    },
    '/api/v1/networks/{network_id}/rpc-health': {
      get: {
        operationId: 'networkRpcHealth',
        summary:
          "What each RPC URL of the network answered at the live prober's last look (only with RPC_PROBE_INTERVAL_MS)",
        security: auth,
        parameters: [ID_PARAM],
        responses: {
          200: json(
            {
              type: 'object',
              required: ['success', 'data', 'error'],
              properties: {
                success: { const: true },
                data: {
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
                },
                error: { type: 'null' },
              },
            },
            undefined,
            'One entry per URL, in the order of rpc_urls.',
          ),
          ...errors('INVALID_ID', 'UNAUTHORIZED', 'NETWORK_NOT_FOUND'),
        },
      },
    },
    '/api/v1/networks/{network_id}/history': {
      get: {
        operationId: 'networkHistory',
        summary: "The network file's commits (git log), newest first",
        security: auth,
        parameters: [ID_PARAM, ...PAGE_PARAMS],
        responses: {
          200: json(ref('HistoryList'), undefined, 'A page of commits.'),
          ...errors('INVALID_ID', 'INVALID_QUERY', 'UNAUTHORIZED', 'NETWORK_NOT_FOUND', 'NOT_IMPLEMENTED'),
        },
      },
    },
    '/api/v1/networks/{network_id}/history/{sha}': {
      get: {
        operationId: 'networkVersion',
        summary: 'The network as of a commit and just before it (the change that commit made); what a revert restores',
        security: auth,
        parameters: [
          ID_PARAM,
          {
            name: 'sha',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^[0-9a-f]{7,64}$' },
            description: 'A commit id from the history, full or abbreviated',
          },
        ],
        responses: {
          200: json(
            {
              type: 'object',
              required: ['success', 'data', 'error'],
              properties: {
                success: { const: true },
                data: {
                  type: 'object',
                  required: ['sha', 'network', 'previous'],
                  properties: {
                    sha: { type: 'string' },
                    network: { oneOf: [ref('Network'), { type: 'null' }] },
                    previous: { oneOf: [ref('Network'), { type: 'null' }] },
                    network_problem: { type: 'string' },
                    previous_problem: { type: 'string' },
                  },
                },
                error: { type: 'null' },
              },
            },
            undefined,
            '`network` is null when the file did not exist at the commit, `previous` when the commit created it; either is null with `network_problem` or `previous_problem` when that version was not a valid network file (or larger than 1 MiB). A commit that did not change the file is a 404.',
          ),
          ...errors(
            'BAD_REQUEST',
            'INVALID_ID',
            'UNAUTHORIZED',
            'NETWORK_NOT_FOUND',
            'FILE_INVALID',
            'NOT_IMPLEMENTED',
          ),
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
            {
              type: 'object',
              required: ['success', 'data', 'error'],
              properties: {
                success: { const: true },
                data: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['id', 'counts'],
                    properties: {
                      id: { type: 'string' },
                      counts: { type: 'object', additionalProperties: { type: 'integer' } },
                    },
                  },
                },
                error: { type: 'null' },
              },
            },
            undefined,
            'One entry per probed network.',
          ),
          ...errors('UNAUTHORIZED'),
        },
      },
    },
    ...RELAYER_PATHS,
    '/api/v1/access/me': {
      get: {
        operationId: 'accessMe',
        summary:
          "Who the request's token is: its name, role, networks and whether it is shown secrets (read role); with no token configured, an admin without a name who is shown no secret",
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
          "netcfg's metrics in Prometheus' text format (docs/metrics.md). Open without a token configured; with tokens, a read token whose scope is every network (the metrics name them all): a scoped token is 403",
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
    ...PROPOSAL_PATHS,
    '/api/v1/openapi.json': {
      get: {
        operationId: 'openapi',
        summary: 'This document',
        responses: {
          200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } },
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
  addCreatePaths(paths);
  // The network routes are served at the bare /networks paths too (the Relayer SDK uses /api/v1).
  for (const p of Object.keys(paths)) {
    if (!p.startsWith('/api/v1/networks')) continue;
    const bare: Record<string, JsonSchema> = {};
    for (const [method, op] of Object.entries(paths[p] as Record<string, JsonSchema>))
      bare[method] = { ...op, operationId: `${String(op.operationId)}Unprefixed` };
    paths[p.slice('/api/v1'.length)] = bare;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'netcfg',
      version: '1',
      description: 'Network configurations from YAML files in git, in the OpenZeppelin Relayer network API format.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API_KEY' } },
      schemas: {
        NetworkFile: schemas.network,
        UpdateNetworkRequest: schemas.updateNetwork,
        Network: networkSchema(schemas.network),
        ...PROPOSAL_SCHEMAS,
        ...CREATE_SCHEMAS,
        ErrorDetail: {
          type: 'object',
          required: ['pointer', 'message'],
          properties: {
            pointer: { type: 'string', description: 'JSON Pointer into the body' },
            message: { type: 'string' },
          },
        },
        Error: {
          type: 'object',
          required: ['success', 'data', 'error', 'code'],
          properties: {
            success: { const: false },
            data: { type: 'null' },
            error: { type: 'string' },
            code: { type: 'string', enum: Object.keys(STATUS_OF) },
            details: { type: 'array', items: ref('ErrorDetail') },
          },
        },
        NetworkEnvelope: {
          type: 'object',
          required: ['success', 'data', 'error'],
          properties: { success: { const: true }, data: ref('Network'), error: { type: 'null' } },
        },
        Pagination: {
          type: 'object',
          required: ['current_page', 'per_page', 'total_items', 'total_pages'],
          properties: {
            current_page: { type: 'integer' },
            per_page: { type: 'integer' },
            total_items: { type: 'integer' },
            total_pages: { type: 'integer' },
          },
        },
        NetworkList: {
          type: 'object',
          required: ['success', 'data', 'error', 'pagination'],
          properties: {
            success: { const: true },
            data: { type: 'array', items: ref('Network') },
            error: { type: 'null' },
            pagination: ref('Pagination'),
            revision: {
              type: 'integer',
              description: 'Index revision the page was read at; resume the change stream from it.',
            },
          },
        },
        Commit: {
          type: 'object',
          required: ['sha', 'author', 'date', 'message'],
          properties: {
            sha: { type: 'string' },
            author: { type: 'string' },
            email: { type: 'string' },
            date: { type: 'string', format: 'date-time' },
            message: { type: 'string' },
            actor: {
              type: ['string', 'null'],
              description:
                "Who made the change (token:<name>, system:<part>), from the commit's Netcfg-Actor trailer; null for a commit made outside netcfg.",
            },
          },
        },
        HistoryList: {
          type: 'object',
          required: ['success', 'data', 'error', 'pagination'],
          properties: {
            success: { const: true },
            data: { type: 'array', items: ref('Commit') },
            error: { type: 'null' },
            pagination: ref('Pagination'),
          },
        },
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
        MeEnvelope: {
          type: 'object',
          required: ['success', 'data', 'error'],
          properties: { success: { const: true }, data: ref('Me'), error: { type: 'null' } },
        },
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
      },
    },
    paths,
  };
}
