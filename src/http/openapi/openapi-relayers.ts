/**
 * The relayer's part of the OpenAPI document (openapi.ts merges it): the relayers kept in sync,
 * one relayer's findings, "sync now", and the export a relayer loads.
 */
import { envelope, errors, json } from './openapi-errors.js';
import type { JsonSchema } from '../../store/index.js';

const auth = [{ bearer: [] }];

const RELAYER_PARAM = {
  name: 'name',
  in: 'path',
  required: true,
  description: "The relayer's name in RELAYER_SYNC_FILE.",
  schema: { type: 'string' },
  example: 'relayer-eu',
};
const FINDING = {
  type: 'object',
  required: ['network', 'kind', 'fields', 'relayer_value', 'netcfg_value', 'sent', 'found_at', 'resolved_at'],
  properties: {
    network: { type: ['string', 'null'], description: 'The network id; null for the relayer as a whole.' },
    kind: { enum: ['drift', 'stale', 'missing', 'extra', 'failing'] },
    fields: { type: 'array', items: { type: 'string' } },
    relayer_value: { description: 'What the relayer holds (redacted), or why it failed.' },
    netcfg_value: { description: 'What netcfg would have it hold (redacted).' },
    sent: { description: 'What netcfg sent to set it back (redacted); null when nothing was sent.' },
    found_at: { type: 'string', format: 'date-time' },
    resolved_at: { type: ['string', 'null'], format: 'date-time' },
  },
};
const RELAYER_DETAIL = envelope({
  type: 'object',
  required: ['name', 'url', 'state', 'counts', 'counts_at', 'last_pass', 'networks', 'findings'],
  properties: { findings: { type: 'array', maxItems: 1000, items: FINDING } },
});

/** The relayer loader's networks document, as the export route answers it. */
const EXPORT_DOCUMENT = {
  type: 'object',
  required: ['networks'],
  properties: { networks: { type: 'array', items: { type: 'object', required: ['type', 'network', 'rpc_urls'] } } },
};
/** A query parameter that is `true` or `false` (anything else is a 400). */
const BOOLEAN_QUERY = { in: 'query', schema: { enum: ['true', 'false'], default: 'false' } };

export const RELAYER_PATHS: Record<string, Record<string, JsonSchema>> = {
  '/api/v1/relayers': {
    get: {
      operationId: 'relayers',
      summary:
        'Each relayer kept in sync (only with RELAYER_SYNC_FILE): state, last pass, counts, PATCHes sent, last error, each network not in sync and why',
      security: auth,
      responses: {
        200: json(
          envelope(
            {
              type: 'array',
              items: { type: 'object', required: ['name', 'url', 'state', 'counts', 'networks'] },
            },
            { lease: { type: 'object', required: ['holder', 'this_replica', 'expires_at'] } },
            [],
          ),
          undefined,
          'One entry per relayer of RELAYER_SYNC_FILE (never a key), and which replica speaks to them.',
        ),
        ...errors('UNAUTHORIZED', 'FORBIDDEN'),
      },
    },
  },
  '/api/v1/relayers/{name}': {
    get: {
      operationId: 'relayer',
      summary:
        'One relayer kept in sync: its status, its last pass (started, ended, pages, networks compared) and its findings newest first (at most 1,000 kept)',
      security: auth,
      parameters: [RELAYER_PARAM],
      responses: {
        200: json(RELAYER_DETAIL, undefined, 'The relayer and what its passes found; values redacted, never a key.'),
        ...errors('UNAUTHORIZED', 'FORBIDDEN', 'RELAYER_NOT_FOUND'),
      },
    },
  },
  '/api/v1/relayers/{name}/sync': {
    post: {
      operationId: 'syncRelayer',
      summary:
        'A pass over one relayer now, answered with what it found when it ends; 409 from a replica that does not hold the relayer lease (it names the holder)',
      security: auth,
      parameters: [RELAYER_PARAM],
      responses: {
        200: json(RELAYER_DETAIL, undefined, 'The relayer after the pass.'),
        ...errors('UNAUTHORIZED', 'FORBIDDEN', 'RELAYER_NOT_FOUND', 'NOT_LEASE_HOLDER'),
      },
    },
  },
  '/api/v1/export/relayer': {
    get: {
      operationId: 'exportRelayer',
      summary:
        "The networks served, as one OpenZeppelin Relayer networks file (its loader's format, not the envelope); what it would refuse, " +
        'and by default a network holding secret references, is left out: Netcfg-Left-Out counts it, Netcfg-Left-Out-Ids names the networks',
      security: auth,
      parameters: [
        {
          ...BOOLEAN_QUERY,
          name: 'resolve_secrets',
          description: 'References as their values (relayer v1.8); reveal_secrets tokens only, else 403',
        },
        {
          ...BOOLEAN_QUERY,
          name: 'keep_references',
          description: 'References as {type: env, value} (a relayer with its PR #517); not with resolve_secrets',
        },
        {
          ...BOOLEAN_QUERY,
          name: 'strict',
          description: 'Anything left out is a 422 EXPORT_INCOMPLETE whose details say each',
        },
      ],
      responses: {
        200: json(
          EXPORT_DOCUMENT,
          undefined,
          'The relayer loader\'s document: {"networks": [...]}, each network flat, only its type\'s fields.',
        ),
        ...errors('INVALID_QUERY', 'UNAUTHORIZED', 'FORBIDDEN', 'EXPORT_INCOMPLETE'),
      },
    },
  },
};
