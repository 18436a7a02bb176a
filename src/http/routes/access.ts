/**
 * GET /api/v1/access/me: who the request's token is (name, role, networks, reveal_secrets) and whether
 * changes are proposed (proposals: enabled, propose_only), so a
 * client such as the console can say who is signed in and offer only what the role may do. With
 * no token configured (loopback only) everything is open: the answer is an admin without a name,
 * and secrets are never revealed, since no token says they may be.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Guard } from '../auth.js';
import type { Principal } from '../../access/token-set.js';

/** The keyless loopback caller: every route open, no secret shown. */
const OPEN_CALLER = { name: null, role: 'admin', networks: null, reveal_secrets: false } as const;

/** Whether changes may be proposed (GIT_PROPOSALS), and whether every change is (GIT_PROPOSE_ONLY): the console offers Propose by them. */
export interface ProposalsSwitch {
  enabled: boolean;
  propose_only: boolean;
}

export function accessRoutes(
  router: Router,
  guard: Guard,
  proposals: ProposalsSwitch = { enabled: false, propose_only: false },
): void {
  router.get('/api/v1/access/me', ...guard('read'), (ctx: Context) => {
    const principal = ctx.state.principal as Principal | undefined;
    ctx.set('Cache-Control', 'no-store'); // the answer is the token's, never a shared cache's
    ctx.body = {
      success: true,
      data: {
        ...(principal
          ? {
              name: principal.name,
              role: principal.role,
              networks: principal.networks,
              reveal_secrets: principal.revealSecrets,
            }
          : OPEN_CALLER),
        proposals,
      },
      error: null,
    };
  });
}
