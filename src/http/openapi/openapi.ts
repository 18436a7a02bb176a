/**
 * The OpenAPI 3.1 document, built at start from the same JSON Schemas that validate files and
 * PATCH bodies (OpenAPI 3.1 speaks JSON Schema 2020-12), so the published contract cannot drift
 * from what the server enforces. The schemas keep their `$id`, so their internal `$ref`s resolve.
 */
import { STATUS_OF } from '../error-handler.js';
import { ref } from './openapi-errors.js';
import { HISTORY_PATHS, HISTORY_SCHEMAS } from './openapi-history.js';
import { NETWORK_PATHS, networkSchemas } from './openapi-networks.js';
import { PROPOSAL_PATHS, PROPOSAL_SCHEMAS } from './openapi-proposals.js';
import { RELAYER_PATHS } from './openapi-relayers.js';
import { RPC_HEALTH_PATHS } from './openapi-rpc-health.js';
import { ACCESS_PATHS, DOCUMENT_PATHS, HEALTH_PATHS, SERVICE_SCHEMAS } from './openapi-service.js';
import { addCreatePaths, CREATE_SCHEMAS } from './openapi-create.js';
import type { JsonSchema, Schemas } from '../../store/index.js';

export function buildOpenApi(schemas: Schemas): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {
    ...HEALTH_PATHS,
    ...NETWORK_PATHS,
    ...HISTORY_PATHS,
    ...RPC_HEALTH_PATHS,
    ...RELAYER_PATHS,
    ...ACCESS_PATHS,
    ...PROPOSAL_PATHS,
    ...DOCUMENT_PATHS,
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
        ...networkSchemas(schemas.network),
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
        ...HISTORY_SCHEMAS,
        ...SERVICE_SCHEMAS,
      },
    },
    paths,
  };
}
