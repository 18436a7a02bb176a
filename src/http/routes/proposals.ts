/**
 * Proposals over HTTP: whether a PATCH proposes (the propose role always; a write or admin token
 * with `?propose=true`; everyone under GIT_PROPOSE_ONLY), its 202 answer with the pull request, and
 * the lists of open proposals (read role, scoped like the rest). What git and the forge do is the
 * Proposals service's (src/proposals): these handlers only translate.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { NetcfgError } from '../../errors.js';
import type { Principal } from '../../access/token-set.js';
import type { CreateProposal, ListedProposal, OpenedProposal } from '../../proposals/proposals.js';
import type { Actor, NetworkStore, ProposeOptions, UrlFinding } from '../../store/index.js';
import { scopeOf, withinScope, type Guard } from '../auth.js';

/** What the routes ask of proposals (src/proposals/proposals.ts). */
export interface ProposalsView {
  readonly proposeOnly: boolean;
  propose(
    id: string,
    body: unknown,
    ifMatch: string | undefined,
    actor: Actor,
    how: ProposeOptions,
  ): Promise<{ proposal: OpenedProposal; findings: UrlFinding[] }>;
  proposeCreate(request: CreateProposal): Promise<{ proposal: OpenedProposal; findings: UrlFinding[] }>;
  list(scope: ((id: string) => boolean) | null): Promise<ListedProposal[]>;
  forNetwork(id: string): Promise<ListedProposal[]>;
  component(): Record<string, unknown>;
}

const OFF = 'Proposals are not configured on this server (GIT_PROPOSALS is not set)';

/**
 * Whether this PATCH (or POST of a new network) is a proposal, or why it may be neither: a propose token's change is always one
 * (without GIT_PROPOSALS the route's guard asks for write, and says why); `?propose=true` without them is 400; `?propose=false` where every
 * change must be proposed is 403.
 */
export function proposes(ctx: Context, principal: Principal, proposals: ProposalsView | undefined): boolean {
  const asked = ctx.query.propose;
  if (asked !== undefined && asked !== 'true' && asked !== 'false') {
    throw new NetcfgError('INVALID_QUERY', `propose must be true or false; got ${JSON.stringify(asked)}.`);
  }
  const must = principal.role === 'propose' || proposals?.proposeOnly === true;
  const [request, direct] = ctx.method === 'POST' ? ['POST', 'add the network'] : ['PATCH', 'change the network'];
  if (asked === 'true' && !proposals)
    throw new NetcfgError('BAD_REQUEST', `${OFF}; send the ${request} without ?propose=true to ${direct} directly.`);
  if (asked === 'false' && must) {
    const why = principal.role === 'propose' ? `${principal.name}'s role is propose` : 'GIT_PROPOSE_ONLY is set';
    throw new NetcfgError(
      'FORBIDDEN',
      `Every change by this caller is a proposal (${why}); send the ${request} without ?propose=false.`,
    );
  }
  return must || asked === 'true';
}

/** A proposal's answer: 202 Accepted, Location at the pull request, the proposal in `data` (and the URLs' findings beside it). */
export function answerProposal(ctx: Context, result: { proposal: OpenedProposal; findings: UrlFinding[] }): void {
  ctx.status = 202;
  ctx.set('Location', result.proposal.url);
  ctx.body = {
    success: true,
    data: { proposal: result.proposal },
    error: null,
    ...(result.findings.length > 0 ? { rpc_warnings: result.findings } : {}),
  };
}

export function proposalRoutes(
  router: Router,
  store: NetworkStore,
  guard: Guard,
  proposals: ProposalsView | undefined,
): void {
  const on = (): ProposalsView => {
    if (proposals) return proposals;
    throw new NetcfgError('NOT_IMPLEMENTED', `${OFF}; there are no proposals to list.`);
  };
  router.get('/api/v1/proposals', ...guard('read'), async (ctx: Context) => {
    ctx.body = { success: true, data: await on().list(scopeOf(ctx)), error: null };
  });
  router.get(
    ['/api/v1/networks/:network_id/proposals', '/networks/:network_id/proposals'],
    ...guard('read'),
    withinScope,
    async (ctx: Context) => {
      const id = store.get(String(ctx.params.network_id)).id; // 400 for a bad id, 404 for none, as every network route
      ctx.body = { success: true, data: await on().forNetwork(id), error: null };
    },
  );
}
