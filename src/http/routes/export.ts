/**
 * GET /api/v1/export/relayer: the networks served now, as one OpenZeppelin Relayer networks
 * document (`{"networks": [...]}`, relayer/format/export.ts), the same `netcfg export relayer --out -`
 * writes, so a relayer's init container can fetch its networks before the relayer starts. It is the
 * relayer's file, not netcfg's envelope; what was left out is counted in a header, and each
 * network's own route says why.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { scopeOf, type Guard } from '../auth.js';
import { oneDocument, relayerExport } from '../../relayer/format/export.js';
import { writtenNetworkOf } from '../../store/network-record.js';
import type { Principal } from '../../access/token-set.js';
import { NetcfgError } from '../../errors.js';
import type { NetworkStore } from '../../store/network-store.js';

export function exportRoutes(router: Router, store: NetworkStore, guard: Guard): void {
  router.get('/api/v1/export/relayer', ...guard('read'), (ctx: Context) => {
    const scope = scopeOf(ctx);
    const ids = store.ids().filter((id) => scope?.(id) ?? true).sort();
    // A v1.8 relayer's init container needs the values: a token with reveal_secrets may ask for them.
    const resolve = ctx.query.resolve_secrets === 'true';
    if (resolve && (ctx.state.principal as Principal | undefined)?.revealSecrets !== true) {
      throw new NetcfgError('FORBIDDEN', 'resolve_secrets=true needs a token with reveal_secrets; without it, secret references are exported as references.');
    }
    const exported = relayerExport(ids.map((id) => writtenNetworkOf(store.get(id), resolve)));
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Netcfg-Left-Out', String(exported.leftOut.length));
    ctx.body = oneDocument(exported);
  });
}
