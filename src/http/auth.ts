/**
 * Bearer tokens on the network routes. A request carrying one Authorization header with one token
 * is let through when the token is known, not expired, and its role includes the route's
 * (read < propose < write < admin: access/token-set.ts); unknown, expired or missing is the same 401 for
 * all (a client learns nothing of the tokens from it), a known token lacking the role is a 403
 * that says which role is needed. Two Authorization headers are refused: Node keeps only the first
 * one, which a proxy may not. The token's name becomes the request's actor, down to the commit.
 */
import type { Context, Middleware, Next } from 'koa';
import { NetcfgError } from '../errors.js';
import { ROLES, type Role } from '../access/tokens-file.js';
import { mayAct, type Principal, type TokenSet } from '../access/token-set.js';
import { matchesAny } from '../id-glob.js';
import { parseNetworkId } from '../store/index.js';

/** Said to a propose token refused a route: its changes are proposals, which the PATCH route takes only with
 * GIT_PROPOSALS. */
const PROPOSE_ONLY_HINT: Partial<Record<Role, string>> = {
  propose: ' A propose token changes networks only through proposals, which need GIT_PROPOSALS.',
};

/** The middleware a route of `role` runs first. */
export type Guard = (role: Role) => Middleware[];

/** No token at all (API_KEY unset, no API_TOKENS_FILE: loopback only): every route open. */
export const OPEN: Guard = () => [];

export function tokenGuard(tokens: TokenSet): Guard {
  const byRole = new Map(ROLES.map((role) => [role, [requireToken(tokens, role)]]));
  return (role) => byRole.get(role) as Middleware[];
}

/** The principal of the request's one bearer token; null when there is none, or it is not valid. */
export function principalOf(tokens: TokenSet, ctx: Context): Principal | null {
  const raw = ctx.req.rawHeaders;
  let count = 0;
  let header = '';
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() === 'authorization') {
      count++;
      header = raw[i + 1] as string;
    }
  }
  // The scheme's case is free (RFC 9110); one space, then the token, exactly.
  const token = count === 1 ? /^bearer ([^\s]+)$/i.exec(header)?.[1] : undefined;
  return token === undefined ? null : tokens.authenticate(token);
}

function requireToken(tokens: TokenSet, role: Role): Middleware {
  // Not async: one promise less per request; a throw here still reaches the frame as a rejection (koa-compose).
  return function requireBearer(ctx: Context, next: Next): Promise<void> {
    const principal = principalOf(tokens, ctx);
    if (!principal)
      throw new NetcfgError('UNAUTHORIZED', 'Missing or wrong API key; send "Authorization: Bearer <API_KEY>".');
    if (!mayAct(principal, role))
      throw new NetcfgError(
        'FORBIDDEN',
        `This needs a token with the ${role} role; ${principal.name}'s role is ${principal.role}.` +
          (PROPOSE_ONLY_HINT[principal.role] ?? ''),
      );
    ctx.state.principal = principal;
    // What the token's holder writes is theirs, down to the commit.
    ctx.state.actor = { kind: 'token', name: principal.name };
    return next();
  };
}

/** The ids the request's token may see, as a test; null when it may see every network (or no token is needed). */
export function scopeOf(ctx: Context): ((id: string) => boolean) | null {
  const networks = (ctx.state.principal as Principal | undefined)?.networks ?? null;
  return networks === null ? null : (id) => matchesAny(networks, id);
}

/**
 * For the routes of one network: a valid id outside the token's scope is answered exactly as an
 * id that does not exist (404, the same sentence), so a scoped token learns nothing of the others.
 */
export const withinScope: Middleware = (ctx, next) => {
  const scope = scopeOf(ctx);
  if (scope) {
    const id = String(ctx.params.network_id);
    if (parseNetworkId(id) !== null && !scope(id))
      throw new NetcfgError('NETWORK_NOT_FOUND', `Network ${id} was not found; GET /api/v1/networks lists the ids.`);
  }
  return next();
};
