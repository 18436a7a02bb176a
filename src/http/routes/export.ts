/**
 * GET /api/v1/export/relayer: the networks served now, as one OpenZeppelin Relayer networks
 * document (`{"networks": [...]}`, relayer/format/export.ts), the same `netcfg export relayer --out -`
 * writes, so a relayer's init container can fetch its networks before the relayer starts. The body is
 * the relayer's file, never anything else: what was left out is in headers (`Netcfg-Left-Out`, a count;
 * `Netcfg-Left-Out-Ids`, the ids), and `strict=true` turns any of it into a 422 whose details say why.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { scopeOf, type Guard } from '../auth.js';
import { oneDocument } from '../../relayer/format/export.js';
import { exportNetworks, leftOutNames, ROUTE_WORDING, type SecretChoice } from '../../relayer/format/secret-choice.js';
import type { Principal } from '../../access/token-set.js';
import { NetcfgError } from '../../errors.js';
import type { NetworkStore } from '../../store/index.js';

/** Ids beyond this many bytes are counted, not listed: proxies refuse headers of 8 KiB and more. */
const IDS_HEADER_BYTES = 4096;

function flag(ctx: Context, name: string): boolean {
  const value = ctx.query[name];
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new NetcfgError('INVALID_QUERY', `${name} must be true or false; got ${JSON.stringify(value)}.`);
}

/** The ids, comma-separated, cut at IDS_HEADER_BYTES with how many more there are. */
export function idsHeader(ids: readonly string[]): string {
  let header = '';
  for (const [i, id] of ids.entries()) {
    const next = header === '' ? id : `${header}, ${id}`;
    if (next.length > IDS_HEADER_BYTES) return `${header}, and ${ids.length - i} more (strict=true lists them all)`;
    header = next;
  }
  return header;
}

export function exportRoutes(router: Router, store: NetworkStore, guard: Guard): void {
  router.get('/api/v1/export/relayer', ...guard('read'), (ctx: Context) => {
    const [resolve, keep, strict] = [flag(ctx, 'resolve_secrets'), flag(ctx, 'keep_references'), flag(ctx, 'strict')];
    if (resolve && keep) {
      throw new NetcfgError(
        'INVALID_QUERY',
        'resolve_secrets=true and keep_references=true cannot both be asked: a reference is its value or itself.',
      );
    }
    // A v1.8 relayer's init container needs the values: a token with reveal_secrets may ask for them.
    if (resolve && (ctx.state.principal as Principal | undefined)?.revealSecrets !== true) {
      throw new NetcfgError(
        'FORBIDDEN',
        'resolve_secrets=true needs a token with reveal_secrets; keep_references=true exports the references instead.',
      );
    }
    const scope = scopeOf(ctx);
    const ids = store
      .ids()
      .filter((id) => scope?.(id) ?? true)
      .sort();
    const choice: SecretChoice = resolve ? 'resolve' : keep ? 'keep' : 'leave-out';
    const exported = exportNetworks(
      ids.map((id) => store.get(id)),
      choice,
      ROUTE_WORDING,
    );
    if (strict && exported.leftOut.length > 0) {
      const message = `strict=true: ${exported.leftOut.length} thing(s) would be left out of the export (see details); nothing was exported.`;
      throw new NetcfgError('EXPORT_INCOMPLETE', message, {
        details: exported.leftOut.map((line) => ({ pointer: '', message: line })),
      });
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Netcfg-Left-Out', String(exported.leftOut.length));
    if (exported.leftOut.length > 0) ctx.set('Netcfg-Left-Out-Ids', idsHeader(leftOutNames(exported.leftOut)));
    ctx.body = oneDocument(exported);
  });
}
