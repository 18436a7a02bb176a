/**
 * The networks' part of the OpenAPI document (openapi.ts merges it): the list, the change stream,
 * one network and its PATCH, and the wire view of a network built from the file's JSON Schema.
 */
import { envelope, errors, json, ref } from './openapi-errors.js';
import { PATCH_PROPOSAL_ERRORS, PATCH_PROPOSE_PARAM, PATCH_PROPOSED } from './openapi-proposals.js';
import type { JsonSchema } from '../../store/index.js';

const auth = [{ bearer: [] }];

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

export const ID_PARAM = {
  name: 'network_id',
  in: 'path',
  required: true,
  description: '<family>:<name>; the colon may be sent as %3A.',
  schema: { type: 'string' },
  example: 'evm:sepolia',
};
export const PAGE_PARAMS = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
];
const ETAG_HEADER = { ETag: { description: 'Strong hash of the file bytes.', schema: { type: 'string' } } };

export const NETWORK_PATHS: Record<string, Record<string, JsonSchema>> = {
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
        'Server-Sent Events: added|modified|deleted {id, etag, revision}; reset when Last-Event-ID is too ' +
        'old; with RPC_PROBE_INTERVAL_MS, rpc_health {id, index, url, status, previous} when a URL changes ' +
        'status (url redacted, index its place in rpc_urls)',
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
};

/** The schemas of the network routes' answers; `file` is the network file's own JSON Schema. */
export function networkSchemas(file: JsonSchema): Record<string, JsonSchema> {
  return {
    Network: networkSchema(file),
    NetworkEnvelope: envelope(ref('Network')),
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
    NetworkList: envelope(
      { type: 'array', items: ref('Network') },
      {
        pagination: ref('Pagination'),
        revision: {
          type: 'integer',
          description: 'Index revision the page was read at; resume the change stream from it.',
        },
      },
      ['pagination'],
    ),
  };
}
