/**
 * The proposals' part of the OpenAPI document (openapi.ts merges it): the lists of open proposals,
 * a PATCH's `?propose=` and its 202, and what /access/me says of roles and proposals.
 */
import { envelope, errors, json, ref } from './openapi-errors.js';
import type { JsonSchema } from '../../store/index.js';

const auth = [{ bearer: [] }];

const EXAMPLE_LISTED = {
  number: 12,
  url: 'https://github.com/octo/networks/pull/12',
  branch: 'netcfg/relayer-eu/evm-sepolia',
  network: 'evm:sepolia',
  actor: 'relayer-eu',
  title: 'evm:sepolia: set rpc_urls',
  created_at: '2026-11-28T08:00:01Z',
  updated_at: '2026-11-28T08:05:00Z',
};

const EXAMPLE_OPENED = {
  number: 12,
  url: EXAMPLE_LISTED.url,
  branch: EXAMPLE_LISTED.branch,
  network: 'evm:sepolia',
  state: 'open',
  updated: false,
  commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
};

const LIST_ERRORS = errors('UNAUTHORIZED', 'NOT_IMPLEMENTED', 'FORGE_REFUSED', 'FORGE_UNAVAILABLE');

export const PROPOSAL_SCHEMAS: Record<string, JsonSchema> = {
  ListedProposal: {
    type: 'object',
    required: ['number', 'url', 'branch', 'network', 'actor', 'title', 'created_at', 'updated_at'],
    properties: {
      number: { type: 'integer', description: "The pull request's number (GitLab's iid)" },
      url: { type: 'string', description: 'Its page on the forge' },
      branch: { type: 'string', description: 'netcfg/<actor>/<family>-<name>' },
      network: { type: 'string' },
      actor: { type: 'string', description: "The actor's part of the branch name (a token's name as it is)" },
      title: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
      updated_at: { type: 'string', format: 'date-time' },
    },
  },
  ProposalList: envelope({ type: 'array', items: ref('ListedProposal') }),
  OpenedProposal: {
    type: 'object',
    required: ['number', 'url', 'branch', 'network', 'state', 'updated', 'commit'],
    properties: {
      number: { type: 'integer' },
      url: { type: 'string' },
      branch: { type: 'string' },
      network: { type: 'string' },
      state: { enum: ['open', 'closed', 'merged'] },
      updated: {
        type: 'boolean',
        description: 'true: the open pull request of this branch was updated; false: one was opened',
      },
      commit: { type: 'string', description: "The branch's one commit" },
    },
  },
  ProposalEnvelope: envelope(
    { type: 'object', required: ['proposal'], properties: { proposal: ref('OpenedProposal') } },
    {
      rpc_warnings: {
        type: 'array',
        items: { type: 'object' },
        description: 'RPC_PROBE_ON_PATCH: what the new URLs answered that was not fine',
      },
    },
    [],
  ),
};

export const PROPOSAL_PATHS: Record<string, Record<string, JsonSchema>> = {
  '/api/v1/proposals': {
    get: {
      operationId: 'listProposals',
      summary:
        "The open pull requests netcfg opened (GIT_PROPOSALS), from the forge; a scoped token sees its networks' only",
      security: auth,
      responses: {
        200: json(
          ref('ProposalList'),
          { success: true, data: [EXAMPLE_LISTED], error: null },
          'The open proposals, by network then number.',
        ),
        ...LIST_ERRORS,
      },
    },
  },
  '/api/v1/networks/{network_id}/proposals': {
    get: {
      operationId: 'listNetworkProposals',
      summary: "One network's open proposals (GIT_PROPOSALS), from the forge",
      security: auth,
      parameters: [
        { name: 'network_id', in: 'path', required: true, schema: { type: 'string' }, example: 'evm:sepolia' },
      ],
      responses: {
        200: json(ref('ProposalList'), undefined, 'Its open proposals.'),
        ...LIST_ERRORS,
        ...errors('INVALID_ID', 'NETWORK_NOT_FOUND'),
      },
    },
  },
};

/** What a PATCH adds for proposals: the `propose` query and the 202 with the pull request. */
export const PATCH_PROPOSE_PARAM = {
  name: 'propose',
  in: 'query',
  schema: { enum: ['true', 'false'] },
  description:
    'true: open a pull request instead of writing (GIT_PROPOSALS; a write or admin token). A propose ' +
    'token always proposes, and so does everyone under GIT_PROPOSE_ONLY.',
};

export const PATCH_PROPOSED = {
  202: {
    description:
      'Proposed: the change is one commit on netcfg/<actor>/<family>-<name> and its pull request is open; nothing served changed.',
    headers: { Location: { description: "The pull request's page on the forge", schema: { type: 'string' } } },
    content: {
      'application/json': {
        schema: ref('ProposalEnvelope'),
        example: { success: true, data: { proposal: EXAMPLE_OPENED }, error: null },
      },
    },
  },
};

export const PATCH_PROPOSAL_ERRORS = [
  'BAD_REQUEST',
  'PROPOSAL_BRANCH_MOVED',
  'FORGE_REFUSED',
  'FORGE_UNAVAILABLE',
] as const;

/** /access/me's `proposals`. */
export const ME_PROPOSALS = {
  type: 'object',
  required: ['enabled', 'propose_only'],
  properties: {
    enabled: { type: 'boolean', description: 'GIT_PROPOSALS is set' },
    propose_only: { type: 'boolean', description: 'GIT_PROPOSE_ONLY: every change is a proposal' },
  },
};
