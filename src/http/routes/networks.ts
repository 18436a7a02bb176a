/**
 * /networks: list, get, patch. Handlers only translate between HTTP and the store: the bodies of
 * GET responses were serialised once by the store when the file changed, so a read is a Map lookup
 * and a few string joins.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { scopeOf, withinScope, type Guard } from '../auth.js';
import bodyParser from 'koa-bodyparser';
import { NetcfgError } from '../../errors.js';
import { BODY_LIMIT_BYTES } from '../error-handler.js';
import {
  ANONYMOUS,
  type Actor,
  jsonOf,
  revealedBodyOf,
  revealedNetworkOf,
  type NetworkStore,
} from '../../store/index.js';
import { mayAct, type Principal } from '../../access/token-set.js';
import { linkHeader, parsePageQuery, totalPages } from '../pagination.js';
import { answerProposal, proposes, type ProposalsView } from './proposals.js';

export interface NetworkRouteOptions {
  requireIfMatch: boolean;
  /** GIT_PROPOSALS: a PATCH may be (or must be) a proposal, answered 202 (routes/proposals.ts). */
  proposals?: ProposalsView | undefined;
}

const JSON_TYPES = ['application/json', 'application/merge-patch+json'];
/** What `ctx.type = 'application/json'` sets, set as it is: the reads skip Koa's media-type lookup. */
const JSON_TYPE = 'application/json; charset=utf-8';

const EMPTY_BODY = 'The request body is empty; send a JSON object such as {"rpc_urls": ["https://rpc.example.com"]}.';

/** 400 for no body at all, 415 before reading a byte of a body that is not (plain, uncompressed) JSON. */
const requireJson: Middleware = async (ctx, next) => {
  // type-is answers null (not false) without a body, which read as "not JSON" before.
  if (ctx.req.headers['transfer-encoding'] === undefined && !(Number(ctx.get('Content-Length')) > 0)) {
    throw new NetcfgError('MALFORMED_JSON', EMPTY_BODY);
  }
  if (!ctx.is(JSON_TYPES)) {
    const sent = ctx.get('Content-Type') || 'no Content-Type';
    throw new NetcfgError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The body must be JSON (Content-Type: application/json or application/merge-patch+json); got ${sent}.`,
    );
  }
  const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw new NetcfgError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Compressed bodies (Content-Encoding: ${encoding.slice(0, 40)}) are not accepted; send plain JSON.`,
    );
  }
  await next();
};

const parseJson = bodyParser({
  enableTypes: ['json'],
  extendTypes: { json: ['application/merge-patch+json'] },
  jsonLimit: String(BODY_LIMIT_BYTES), // bytes, as the body parser reads a bare number
  strict: false, // a body of `42` or `"x"` is a schema error naming the body, not a parse error
});

export function networkRoutes(router: Router, store: NetworkStore, guard: Guard, options: NetworkRouteOptions): void {
  const lists = ['/api/v1/networks', '/networks'];
  const items = ['/api/v1/networks/:network_id', '/networks/:network_id'];

  const pages = new PageCache();
  router.get(lists, ...guard('read'), (ctx: Context) => {
    const revision = store.revision();
    // Keyed by the URL as sent: relayers repeat the same few, and a repeat is answered without
    // parsing its query again. An invalid query throws below, before anything is kept.
    const scope = scopeOf(ctx);
    // A scoped token's page is its scope's: keyed by the scope too, so a token whose scope the file changed never sees the old page.
    const reveal = revealsSecrets(ctx);
    const scopeKey = scope ? `${(ctx.state.principal as { networks: string[] }).networks.join(',')} ` : '';
    const key = `${reveal ? 'revealed ' : ''}${scopeKey}${ctx.url}`;
    let rendered = pages.get(revision, key);
    if (!rendered) {
      const query = parsePageQuery(ctx);
      const page = store.page((query.page - 1) * query.perPage, query.perPage, query.family, scope ?? undefined);
      const pagination =
        `{"current_page":${query.page},"per_page":${query.perPage},"total_items":${page.total},` +
        `"total_pages":${totalPages(page.total, query.perPage)}}`;
      const data = page.records.map((r) => (reveal && r.secrets ? JSON.stringify(revealedNetworkOf(r)) : jsonOf(r)));
      rendered = {
        body: Buffer.from(
          `{"success":true,"data":[${data.join(',')}],"error":null,"pagination":${pagination},"revision":${page.revision}}`,
        ),
        link: linkHeader(ctx.path, query, page.total),
      };
      pages.set(revision, key, rendered);
    }
    ctx.set('Link', rendered.link);
    ctx.set('Content-Type', JSON_TYPE);
    ctx.body = rendered.body;
  });

  router.get(
    ['/api/v1/networks/:network_id/history', '/networks/:network_id/history'],
    ...guard('read'),
    withinScope,
    async (ctx: Context) => {
      const query = parsePageQuery(ctx);
      const { commits, total } = await store.history(
        String(ctx.params.network_id),
        (query.page - 1) * query.perPage,
        query.perPage,
      );
      ctx.set('Link', linkHeader(ctx.path, query, total));
      ctx.body = {
        success: true,
        data: commits,
        error: null,
        pagination: {
          current_page: query.page,
          per_page: query.perPage,
          total_items: total,
          total_pages: totalPages(total, query.perPage),
        },
      };
    },
  );

  // The network as of one commit and just before it: the change that commit made (the console's history and revert).
  router.get(
    ['/api/v1/networks/:network_id/history/:sha', '/networks/:network_id/history/:sha'],
    ...guard('read'),
    withinScope,
    async (ctx: Context) => {
      ctx.body = {
        success: true,
        data: await store.versionAt(String(ctx.params.network_id), String(ctx.params.sha)),
        error: null,
      };
    },
  );

  router.get(items, ...guard('read'), withinScope, (ctx: Context) => {
    const record = store.get(String(ctx.params.network_id));
    ctx.set('ETag', record.etag);
    ctx.set('Content-Type', JSON_TYPE);
    if (ctx.req.headers['if-none-match'] !== undefined) {
      ctx.status = 200; // ctx.fresh only compares for a 2xx status
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
    }
    ctx.body = revealsSecrets(ctx) ? revealedBodyOf(record) : record.body;
  });

  // The propose role reaches the handler, which proposes its change; write and admin change directly unless they propose.
  // Without GIT_PROPOSALS a change is a write, and the 403 says so; with them a propose token may PATCH too (a proposal).
  router.patch(
    items,
    ...guard(options.proposals ? 'propose' : 'write'),
    withinScope,
    requireJson,
    parseJson,
    async (ctx: Context) => {
      const principal = principalOf(ctx);
      const proposing = proposes(ctx, principal, options.proposals);
      const ifMatch = ctx.get('If-Match') || undefined;
      if (ifMatch === undefined && options.requireIfMatch) {
        throw new NetcfgError(
          'PRECONDITION_REQUIRED',
          'This server requires If-Match on PATCH; GET the network and send its ETag in If-Match.',
        );
      }
      if (String(ctx.request.rawBody ?? '').trim() === '') throw new NetcfgError('MALFORMED_JSON', EMPTY_BODY); // chunked, with nothing in it
      const reveal = revealsSecrets(ctx);
      const how = { revealSecrets: reveal, changeReferences: reveal || mayAct(principal, 'admin') };
      const actor = (ctx.state.actor as Actor | undefined) ?? ANONYMOUS;
      if (proposing && options.proposals)
        return answerProposal(
          ctx,
          await options.proposals.propose(String(ctx.params.network_id), ctx.request.body, ifMatch, actor, how),
        );
      const { record, findings } = await store.update(
        String(ctx.params.network_id),
        ctx.request.body,
        ifMatch,
        actor,
        how,
      );
      ctx.set('ETag', record.etag);
      ctx.type = 'application/json';
      const body = reveal ? revealedBodyOf(record) : record.body;
      // What the URLs answered that was not fine (RPC_PROBE_ON_PATCH) goes beside the data.
      ctx.body = findings.length === 0 ? body : `${body.slice(0, -1)},"rpc_warnings":${JSON.stringify(findings)}}`;
    },
  );
}

/** Whether the request's token may see the values of secret references (API_TOKENS_FILE's reveal_secrets). */
function revealsSecrets(ctx: Context): boolean {
  return (ctx.state.principal as Principal | undefined)?.revealSecrets === true;
}

/** The request's token; with none configured (loopback, every route open) the caller is an admin, as /access/me says. */
export function principalOf(ctx: Context): Principal {
  return (
    (ctx.state.principal as Principal | undefined) ?? { name: '', role: 'admin', networks: null, revealSecrets: false }
  );
}

/**
 * Rendered list pages, kept until the index changes. Relayers ask for the same few pages again
 * and again; a page is built once per index revision and then answered as bytes. Bounded, and
 * dropped whole on any change.
 */
interface RenderedPage {
  /** Bytes, not a string: Node copies a string body into each response, and sends a Buffer as it is. */
  body: Buffer;
  link: string;
}

class PageCache {
  private revision = -1;
  private readonly pages = new Map<string, RenderedPage>();

  constructor(private readonly capacity = 256) {}

  get(revision: number, key: string): RenderedPage | undefined {
    if (revision !== this.revision) {
      this.pages.clear();
      this.revision = revision;
      return undefined;
    }
    return this.pages.get(key);
  }

  set(revision: number, key: string, page: RenderedPage): void {
    if (revision !== this.revision) return;
    if (this.pages.size >= this.capacity) this.pages.delete(this.pages.keys().next().value as string);
    this.pages.set(key, page);
  }
}
