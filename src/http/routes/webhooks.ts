/**
 * POST /api/v1/webhooks/git: a git host says it was pushed to, and the store pulls at once (the
 * interval's head check is what reaches replicas the webhook missed). It exists only when
 * GIT_WEBHOOK_SECRET is set, and is not behind API_KEY: git hosts cannot send a bearer key, they
 * sign. Accepted, each compared in constant time:
 * - GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`;
 * - Gitea and Forgejo: `X-Gitea-Signature: <hex HMAC-SHA256 of the raw body>`;
 * - GitLab: `X-Gitlab-Token: <the secret>`.
 * 202 and a pull starts; anything else starts nothing. The body is never used, only signed, so
 * it is hashed as it arrives and not kept: anyone can send one, before any check has passed.
 */
import { createHash, createHmac, timingSafeEqual, type Hmac } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { NetcfgError } from '../../errors.js';
import type { NetworkStore } from '../../store/index.js';

/** Push payloads of large pushes run to a few hundred KiB; GitHub caps them at 25 MB, we at 1 MiB. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** What a request says signs it: an HMAC of its body (GitHub, Gitea) or GitLab's token; null: nothing. */
type Claim = { hmac: string; prefix: string } | { token: string } | null;

function claimOf(headers: IncomingHttpHeaders): Claim {
  const one = (name: string): string | undefined => (typeof headers[name] === 'string' ? headers[name] : undefined);
  const github = one('x-hub-signature-256');
  if (github !== undefined) return { hmac: github.trim().toLowerCase(), prefix: 'sha256=' };
  const gitea = one('x-gitea-signature');
  if (gitea !== undefined) return { hmac: gitea.trim().toLowerCase(), prefix: '' };
  const gitlab = one('x-gitlab-token');
  if (gitlab !== undefined) return { token: gitlab };
  return null;
}

function tooLarge(): NetcfgError {
  return new NetcfgError('PAYLOAD_TOO_LARGE', `The webhook body is larger than ${WEBHOOK_BODY_LIMIT} bytes.`);
}

/**
 * Feeds the body to `hmac` chunk by chunk, keeping none of it; 413 past `limit`. The request is
 * not destroyed on a 413 (what follows flows to no listener), so the client still gets the answer.
 */
function hashBody(req: IncomingMessage, hmac: Hmac, limit: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const settle = (err?: NetcfgError): void => {
      req.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) settle(tooLarge());
      else hmac.update(chunk);
    };
    const onEnd = (): void => settle();
    const onClose = (): void => settle(new NetcfgError('BAD_REQUEST', 'The webhook body was cut off before its end.'));
    req.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
  });
}

/** Constant-time equality of two strings of any length (both hashed first). */
function same(a: string, b: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Whether one of the three forms above signs the request with `secret`; 413 past `limit`. */
async function signedBy(secret: string, req: IncomingMessage, limit: number): Promise<boolean> {
  if (Number(req.headers['content-length']) > limit) throw tooLarge();
  const claim = claimOf(req.headers);
  if (claim === null) return false;
  if ('token' in claim) return same(claim.token, secret); // GitLab signs nothing: the body is not needed
  const hmac = createHmac('sha256', secret);
  await hashBody(req, hmac, limit);
  return same(claim.hmac, `${claim.prefix}${hmac.digest('hex')}`);
}

export function webhookRoutes(router: Router, store: NetworkStore, secret: string): void {
  router.post('/api/v1/webhooks/git', async (ctx: Context) => {
    if (!(await signedBy(secret, ctx.req, WEBHOOK_BODY_LIMIT))) {
      throw new NetcfgError(
        'UNAUTHORIZED',
        'The webhook is not signed with GIT_WEBHOOK_SECRET (X-Hub-Signature-256, X-Gitea-Signature or X-Gitlab-Token); nothing was pulled.',
      );
    }
    if (!store.pullNow()) throw new NetcfgError('NOT_IMPLEMENTED', 'GIT_SYNC is off: there is no remote to pull from.');
    ctx.status = 202;
    ctx.body = { success: true, data: { pulling: true }, error: null };
  });
}
