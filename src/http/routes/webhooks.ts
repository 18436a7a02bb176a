/**
 * POST /api/v1/webhooks/git: a git host says it was pushed to, and the store pulls at once (the
 * interval's head check is what reaches replicas the webhook missed). It exists only when
 * GIT_WEBHOOK_SECRET is set, and is not behind API_KEY: git hosts cannot send a bearer key, they
 * sign. Accepted, each compared in constant time:
 * - GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`;
 * - Gitea and Forgejo: `X-Gitea-Signature: <hex HMAC-SHA256 of the raw body>`;
 * - GitLab: `X-Gitlab-Token: <the secret>`.
 * 202 and a pull starts; anything else starts nothing.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { NetcfgError } from '../../errors.js';
import type { NetworkStore } from '../../store/network-store.js';

/** Push payloads of large pushes run to a few hundred KiB; GitHub caps them at 25 MB, we at 1 MiB. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** The raw body, refused past `limit` (413) without reading the rest. */
async function rawBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('Content-Length'));
  if (declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(): NetcfgError {
  return new NetcfgError('PAYLOAD_TOO_LARGE', `The webhook body is larger than ${WEBHOOK_BODY_LIMIT} bytes.`);
}

/** Constant-time equality of two strings of any length (both hashed first). */
function same(a: string, b: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Whether one of the three forms above signs `body` with `secret`. */
export function signedBy(secret: string, headers: Record<string, string | string[] | undefined>, body: Buffer): boolean {
  const hex = createHmac('sha256', secret).update(body).digest('hex');
  const one = (name: string): string | undefined => (typeof headers[name] === 'string' ? (headers[name] as string) : undefined);
  const github = one('x-hub-signature-256');
  if (github !== undefined) return same(github.trim().toLowerCase(), `sha256=${hex}`);
  const gitea = one('x-gitea-signature');
  if (gitea !== undefined) return same(gitea.trim().toLowerCase(), hex);
  const gitlab = one('x-gitlab-token');
  if (gitlab !== undefined) return same(gitlab, secret);
  return false;
}

export function webhookRoutes(router: Router, store: NetworkStore, secret: string): void {
  router.post('/api/v1/webhooks/git', async (ctx: Context) => {
    const body = await rawBody(ctx, WEBHOOK_BODY_LIMIT);
    if (!signedBy(secret, ctx.req.headers, body)) {
      throw new NetcfgError('UNAUTHORIZED', 'The webhook is not signed with GIT_WEBHOOK_SECRET (X-Hub-Signature-256, X-Gitea-Signature or X-Gitlab-Token); nothing was pulled.');
    }
    if (!store.pullNow()) throw new NetcfgError('NOT_IMPLEMENTED', 'GIT_SYNC is off: there is no remote to pull from.');
    ctx.status = 202;
    ctx.body = { success: true, data: { pulling: true }, error: null };
  });
}
