/**
 * POST /api/v1/networks: a new network, from the body and (from_registry) the chain registry, each
 * RPC URL probed first (src/registry/creation.ts); `dry_run` answers what would be written and each
 * URL's verdict, and writes nothing. GET /api/v1/registry/chains?q= is the console's search box.
 * The write role; a scoped token only within its scope. With GIT_PROPOSALS a new network is proposed as
 * a PATCH is (routes/proposals.ts: a propose token always, write or admin with ?propose=true, everyone
 * under GIT_PROPOSE_ONLY): its file on the actor's branch, a pull request, 202, nothing served changes.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import bodyParser from 'koa-bodyparser';
import { NetcfgError } from '../../errors.js';
import type { NetworkCreation } from '../../registry/creation.js';
import { ANONYMOUS, type Actor, type NetworkStore } from '../../store/index.js';
import { scopeOf, type Guard } from '../auth.js';
import { BODY_LIMIT_BYTES } from '../error-handler.js';
import { principalOf } from './networks.js';
import { answerProposal, proposes, type ProposalsView } from './proposals.js';

const parseJson = bodyParser({ enableTypes: ['json'], jsonLimit: String(BODY_LIMIT_BYTES), strict: false });

export function createRoutes(
  router: Router,
  store: NetworkStore,
  guard: Guard,
  creation: NetworkCreation,
  proposals: ProposalsView | undefined,
): void {
  // As PATCH: with GIT_PROPOSALS a propose token reaches the handler, whose new network is then a proposal.
  const role = proposals ? 'propose' : 'write';
  router.post(['/api/v1/networks', '/networks'], ...guard(role), parseJson, async (ctx: Context) => {
    if (!ctx.is('application/json'))
      throw new NetcfgError('UNSUPPORTED_MEDIA_TYPE', 'The body must be JSON (Content-Type: application/json).');
    const proposing = proposes(ctx, principalOf(ctx), proposals);
    const body = creation.read(ctx.request.body);
    const { id } = body;
    const scope = scopeOf(ctx);
    if (scope && !scope(id.id))
      throw new NetcfgError('FORBIDDEN', `This token's networks do not take ${id.id}; nothing was written.`);
    if (store.ids().includes(id.id))
      throw new NetcfgError('NETWORK_EXISTS', `${id.id} exists already; PATCH it instead. Nothing was written.`);
    const planned = await creation.plan(body);
    const beside = { candidates: planned.candidates, registry: planned.registry };
    if (body.dryRun) {
      ctx.body = {
        success: true,
        data: { network: planned.network, ...beside, problems: planned.problems },
        error: null,
      };
      return;
    }
    if (planned.problems.length > 0) {
      const more = planned.problems.length > 1 ? ` (and ${planned.problems.length - 1} more)` : '';
      throw new NetcfgError('VALIDATION_FAILED', `${planned.problems[0]?.message}${more}; nothing was written.`, {
        details: planned.problems,
      });
    }
    const { id: _id, name: _name, network_type: _type, ...fields } = planned.network;
    const actor = (ctx.state.actor as Actor | undefined) ?? ANONYMOUS;
    if (proposing && proposals) {
      const { comment } = planned;
      const request = { id: id.id, fields, comment, actor, ...beside };
      return answerProposal(ctx, await proposals.proposeCreate(request));
    }
    const record = await store.create(id.id, fields, planned.comment, actor);
    ctx.status = 201;
    ctx.set('Location', `/api/v1/networks/${id.id}`);
    ctx.set('ETag', record.etag);
    ctx.type = 'application/json';
    ctx.body = `${record.body.slice(0, -1)},"candidates":${JSON.stringify(beside.candidates)},"registry":${JSON.stringify(beside.registry)}}`;
  });

  router.get('/api/v1/registry/chains', ...guard('read'), (ctx: Context) => {
    const q = ctx.query.q;
    if (typeof q !== 'string' || q.trim() === '')
      throw new NetcfgError('INVALID_QUERY', "q is required: a chain id or part of a chain's name (e.g. ?q=optimism).");
    ctx.body = { success: true, data: creation.search(q.slice(0, 100)), error: null };
  });
}
