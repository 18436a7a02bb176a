/**
 * An error that says when to retry (a rate-limiting forge) leaves with Retry-After and its status;
 * one that does not, without it.
 */
import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import { NetcfgError } from '../../src/errors.js';
import { requestFrame } from '../../src/http/request-frame.js';
import { createLogger } from '../../src/log.js';

function appThrowing(err: Error): Koa {
  const app = new Koa();
  app.use(requestFrame(createLogger('silent')));
  app.use(() => {
    throw err;
  });
  return app;
}

describe('error handler: Retry-After', () => {
  const cases: Array<[string, NetcfgError, number, string | undefined]> = [
    [
      'rate-limited forge',
      new NetcfgError('FORGE_UNAVAILABLE', 'GitHub is rate-limiting the token; retry in 60 s.', {
        retryAfterSeconds: 60,
      }),
      503,
      '60',
    ],
    ['forge down', new NetcfgError('FORGE_UNAVAILABLE', 'GitHub cannot be reached; retry later.'), 503, undefined],
    ['forge refusing', new NetcfgError('FORGE_REFUSED', 'GitHub refused the token (401).'), 502, undefined],
  ];
  for (const [what, err, status, retryAfter] of cases) {
    it(`${what}: ${status}, Retry-After ${retryAfter ?? 'absent'}`, async () => {
      const res = await request(appThrowing(err).callback()).get('/').expect(status);
      expect(res.headers['retry-after']).to.equal(retryAfter);
      expect(res.body).to.deep.include({ success: false, data: null, error: err.message, code: err.code });
    });
  }
});
