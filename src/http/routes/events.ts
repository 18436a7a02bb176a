/**
 * GET /networks/events: the index's changes as Server-Sent Events. Each change is one event
 * (`added`, `modified`, `deleted`) whose id is the index revision, so `Last-Event-ID` (sent by
 * EventSource on reconnect, or by a client that listed at revision R) resumes without a gap.
 * When the asked revision is no longer in the bounded log, a `reset` event says: list again.
 * Comment lines every `heartbeatMs` keep proxies from closing an idle stream. A client that stops
 * reading is dropped once more than `STREAM_BACKLOG_LIMIT` waits for it (it resumes from its last id).
 */
import { PassThrough } from 'node:stream';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { scopeOf, type Guard } from '../auth.js';
import { mayAct, type Principal } from '../../access/token-set.js';
import { NetcfgError } from '../../errors.js';
import type { IndexChange, NetworkStore } from '../../store/index.js';
import { rpcHealthFrame, type RpcHealthView } from './rpc-health.js';
import { relayerSyncFrame, type RelayersView } from './relayers.js';

/**
 * What may wait in the server for one client, beyond the replay it asked for at connect (at most
 * the change log): a client that reads falls this far behind only in a burst, and losing it costs a
 * reconnect that misses nothing, while one that stopped reading would otherwise hold every event.
 */
export const STREAM_BACKLOG_LIMIT = 1024 * 1024;

export interface EventRouteOptions {
  heartbeatMs: number;
  /** Aborted when the server shuts down: every stream is ended so the server can close. */
  shutdown: AbortSignal;
  /** RPC_PROBE_INTERVAL_MS: a URL whose status changes is an `rpc_health` event too. */
  rpcHealth?: RpcHealthView | undefined;
  /** RELAYER_SYNC_FILE: a relayer whose state changes is a `relayer_sync` event. */
  relayers?: RelayersView | undefined;
}

function frame(change: IndexChange): string {
  const data = { id: change.id, etag: change.etag, revision: change.revision, actor: change.actor };
  return `id: ${change.revision}\nevent: ${change.kind}\ndata: ${JSON.stringify(data)}\n\n`;
}

function lastEventId(ctx: Context): number | undefined {
  const raw = ctx.get('Last-Event-ID') || (typeof ctx.query.last_event_id === 'string' ? ctx.query.last_event_id : '');
  if (raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new NetcfgError(
      'INVALID_QUERY',
      'Last-Event-ID must be a revision number from an earlier event or list response.',
      {
        details: [{ pointer: '/last_event_id', message: 'Last-Event-ID must be a whole number.' }],
      },
    );
  }
  return Number(raw);
}

export function eventRoutes(router: Router, store: NetworkStore, guard: Guard, options: EventRouteOptions): void {
  router.get(['/api/v1/networks/events', '/networks/events'], ...guard('read'), (ctx: Context) => {
    const resumeFrom = lastEventId(ctx);
    // A scoped token hears only its networks' events; only an admin token (or a server without tokens) hears the relayers, as their route needs admin.
    const scope = scopeOf(ctx);
    const principal = ctx.state.principal as Principal | undefined;
    const hearsRelayers = scope === null && (principal === undefined || mayAct(principal, 'admin'));
    const sees = (id: string): boolean => scope?.(id) ?? true;
    const stream = new PassThrough();
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
    });
    ctx.body = stream;

    stream.write(`retry: 1000\n: netcfg change stream at revision ${store.revision()}\n\n`);
    if (resumeFrom !== undefined) {
      const missed = store.changesSince(resumeFrom);
      if (missed === null) {
        const reason = 'the asked revision is no longer kept; list the networks again';
        const data = JSON.stringify({ revision: store.revision(), reason });
        stream.write(`id: ${store.revision()}\nevent: reset\ndata: ${data}\n\n`);
      } else {
        for (const change of missed) if (sees(change.id)) stream.write(frame(change));
      }
    }
    // Bytes not yet taken by the kernel: in the stream (both sides) and in the response's socket.
    const waiting = (): number => stream.writableLength + stream.readableLength + ctx.res.writableLength;
    const allowed = waiting() + STREAM_BACKLOG_LIMIT;
    const send = (text: string): void => {
      stream.write(text);
      if (waiting() > allowed) drop();
    };
    const offIndex = store.subscribe((change) => sees(change.id) && send(frame(change)));
    const offRpc = options.rpcHealth?.onChange((change) => sees(change.id) && send(rpcHealthFrame(change)));
    const offRelayers = hearsRelayers
      ? options.relayers?.onChange((status) => send(relayerSyncFrame(status)))
      : undefined;
    const offFindings = hearsRelayers
      ? options.relayers?.onFinding((status, finding) => send(relayerSyncFrame(status, finding)))
      : undefined;
    const heartbeat = setInterval(() => send(`: heartbeat ${Date.now()}\n\n`), options.heartbeatMs);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      offIndex();
      offRpc?.();
      offRelayers?.();
      offFindings?.();
      clearInterval(heartbeat);
      options.shutdown.removeEventListener('abort', end);
      stream.end();
    };
    // Destroyed, not ended: what waits is thrown away, and the cut stream tells the client to resume.
    const drop = (): void => {
      end();
      stream.destroy();
      ctx.req.socket.destroy();
    };
    options.shutdown.addEventListener('abort', end);
    ctx.req.once('close', end);
  });
}
