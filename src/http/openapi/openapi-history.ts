/**
 * The history's part of the OpenAPI document (openapi.ts merges it): a network file's commits and
 * the network as of one of them, read from git.
 */
import { envelope, errors, json, ref } from './openapi-errors.js';
import { ID_PARAM, PAGE_PARAMS } from './openapi-networks.js';
import type { JsonSchema } from '../../store/index.js';

const auth = [{ bearer: [] }];

export const HISTORY_PATHS: Record<string, Record<string, JsonSchema>> = {
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
          envelope({
            type: 'object',
            required: ['sha', 'network', 'previous'],
            properties: {
              sha: { type: 'string' },
              network: { oneOf: [ref('Network'), { type: 'null' }] },
              previous: { oneOf: [ref('Network'), { type: 'null' }] },
              network_problem: { type: 'string' },
              previous_problem: { type: 'string' },
            },
          }),
          undefined,
          '`network` is null when the file did not exist at the commit, `previous` when the commit created it; ' +
            'either is null with `network_problem` or `previous_problem` when that version was not a valid ' +
            'network file (or larger than 1 MiB). A commit that did not change the file is a 404.',
        ),
        ...errors('BAD_REQUEST', 'INVALID_ID', 'UNAUTHORIZED', 'NETWORK_NOT_FOUND', 'FILE_INVALID', 'NOT_IMPLEMENTED'),
      },
    },
  },
};

export const HISTORY_SCHEMAS: Record<string, JsonSchema> = {
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
  HistoryList: envelope({ type: 'array', items: ref('Commit') }, { pagination: ref('Pagination') }),
};
