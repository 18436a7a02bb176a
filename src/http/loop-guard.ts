/**
 * A request that carries this process's own instance id (src/instance.ts) was sent by its own
 * relayer sync: a targets entry points at this netcfg. It is answered 508 LOOP_DETECTED with the id
 * echoed back, before any route runs (the request frame checks it first), so the sync tells it
 * apart and sends it nothing more.
 */
import type { Context } from 'koa';
import { NetcfgError } from '../errors.js';
import { INSTANCE_HEADER } from '../instance.js';

/** Throws LOOP_DETECTED for a request carrying `instanceId`; returns for any other. */
export function refuseOwnRequest(ctx: Context, instanceId: string): void {
  if (ctx.req.headers[INSTANCE_HEADER] !== instanceId) return;
  ctx.set(INSTANCE_HEADER, instanceId);
  throw new NetcfgError(
    'LOOP_DETECTED',
    'This request came from this netcfg itself: a relayer target in RELAYER_SYNC_FILE points at it.',
  );
}
