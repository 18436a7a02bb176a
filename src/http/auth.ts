/**
 * Bearer authentication for the network routes. The key is compared in constant time (both sides
 * are hashed first, so even the length does not show in the timing), and a request that carries
 * two Authorization headers is refused: Node keeps only the first one, which a proxy may not.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { NetcfgError } from '../errors.js';
import type { Actor } from '../store/actor.js';

/** API_KEY's holder, as commits and change events name them. */
const API_KEY_ACTOR: Actor = { kind: 'token', name: 'api-key' };

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The scheme name is case-insensitive (RFC 9110); the token is compared exactly. */
function normalise(header: string): string {
  const space = header.indexOf(' ');
  return space < 0 ? header : `${header.slice(0, space).toLowerCase()}${header.slice(space)}`;
}

export function bearerAuth(apiKey: string) {
  const expected = digest(`bearer ${apiKey}`);
  return async function requireBearer(ctx: Context, next: Next): Promise<void> {
    const raw = ctx.req.rawHeaders;
    let count = 0;
    let header = '';
    for (let i = 0; i < raw.length; i += 2) {
      if ((raw[i] as string).toLowerCase() === 'authorization') {
        count++;
        header = raw[i + 1] as string;
      }
    }
    const ok = timingSafeEqual(digest(normalise(header)), expected);
    if (count !== 1 || !ok) {
      throw new NetcfgError('UNAUTHORIZED', 'Missing or wrong API key; send "Authorization: Bearer <API_KEY>".');
    }
    ctx.state.actor = API_KEY_ACTOR; // what the key's holder writes is theirs, down to the commit
    await next();
  };
}
