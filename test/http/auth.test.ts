/**
 * Bearer auth on the network routes: every refusal is the same 401 (body and WWW-Authenticate),
 * so a client learns nothing about the key from the answer; health and ready stay open.
 */
import { expect } from 'chai';
import { openReadApp, rawHttp, serveApp, type ReadApp, type Served } from '../helpers/read-http.js';

const KEY = 'test-key-0123456789abcdef0123456789abcdef';
const WRONG_SAME_LENGTH = 'x'.repeat(KEY.length);

const refused: Array<{ name: string; authorization?: string }> = [
  { name: 'no Authorization header' },
  { name: 'the Basic scheme', authorization: `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}` },
  { name: 'the key without a scheme', authorization: KEY },
  { name: 'Bearer and nothing else', authorization: 'Bearer' },
  { name: 'a wrong key of the same length', authorization: `Bearer ${WRONG_SAME_LENGTH}` },
  { name: 'a key one character short', authorization: `Bearer ${KEY.slice(0, -1)}` },
  { name: 'a key one character long', authorization: `Bearer ${KEY}x` },
  { name: 'a much shorter key', authorization: 'Bearer k' },
  { name: 'the key twice', authorization: `Bearer ${KEY}${KEY}` },
  { name: 'two spaces after Bearer', authorization: `Bearer  ${KEY}` },
];

const guarded = [
  '/api/v1/networks',
  '/networks',
  '/api/v1/networks/evm:sepolia',
  '/networks/evm%3Asepolia',
  '/api/v1/networks/evm:nope',
  '/api/v1/networks/NOT-AN-ID',
];

describe('bearer auth (createApp with apiKey)', () => {
  let fx: ReadApp;
  let served: Served;
  let reference: { text: string; challenge: string | undefined };
  before(async () => {
    fx = await openReadApp(undefined, { apiKey: KEY });
    served = await serveApp(fx.app);
    const res = await fx.agent.get('/api/v1/networks');
    reference = { text: res.text, challenge: res.headers['www-authenticate'] };
  });
  after(async () => {
    await served.close();
    await fx.close();
  });

  it('the 401 is the error envelope with code UNAUTHORIZED and a Bearer challenge', async () => {
    const res = await fx.agent.get('/api/v1/networks');
    expect(res.status).to.equal(401);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    expect(res.body).to.include({ success: false, data: null, code: 'UNAUTHORIZED' });
    expect(res.headers['www-authenticate']).to.match(/^Bearer realm="netcfg"$/);
  });

  for (const row of refused) {
    for (const url of ['/api/v1/networks', '/networks/evm:sepolia']) {
      it(`${row.name} on ${url} -> the same 401`, async () => {
        const req = fx.agent.get(url);
        if (row.authorization !== undefined) req.set('Authorization', row.authorization);
        const res = await req;
        expect(res.status).to.equal(401);
        expect(res.text).to.equal(reference.text);
        expect(res.headers['www-authenticate']).to.equal(reference.challenge);
      });
    }
  }

  // Checked before the id: an unknown or malformed id must not answer 404/400 to a stranger.
  for (const url of guarded) {
    it(`GET ${url} without the key -> 401`, async () => {
      const res = await fx.agent.get(url);
      expect(res.status).to.equal(401);
      expect(res.text).to.equal(reference.text);
    });
  }

  it('the right key opens the list and a network on both prefixes', async () => {
    for (const url of ['/api/v1/networks', '/networks', '/api/v1/networks/evm:sepolia', '/networks/evm%3Asepolia']) {
      const res = await fx.agent.get(url).set('Authorization', `Bearer ${KEY}`);
      expect(res.status, url).to.equal(200);
      expect(res.body.success).to.equal(true);
    }
  });

  describe('two Authorization headers (sent on a raw socket)', () => {
    const pairs: Array<[string, string, string]> = [
      ['both right', `Bearer ${KEY}`, `Bearer ${KEY}`],
      ['right then wrong', `Bearer ${KEY}`, `Bearer ${WRONG_SAME_LENGTH}`],
      ['wrong then right', `Bearer ${WRONG_SAME_LENGTH}`, `Bearer ${KEY}`],
    ];
    for (const [name, first, second] of pairs) {
      it(`${name} -> the same 401`, async () => {
        const res = await rawHttp(served.port, [
          'GET /api/v1/networks HTTP/1.1',
          'Host: 127.0.0.1',
          `Authorization: ${first}`,
          `Authorization: ${second}`,
        ]);
        expect(res.status).to.equal(401);
        expect(res.body).to.equal(reference.text);
        expect(res.headers['www-authenticate']).to.deep.equal([reference.challenge]);
      });
    }

    it('one right header on the same raw socket path -> 200 (the raw request itself is sound)', async () => {
      const res = await rawHttp(served.port, [
        'GET /api/v1/networks HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${KEY}`,
      ]);
      expect(res.status).to.equal(200);
      expect(JSON.parse(res.body).success).to.equal(true);
    });
  });

  describe('health and ready need no key', () => {
    for (const url of ['/api/v1/health', '/api/v1/ready']) {
      it(`GET ${url} without a key, and with a wrong one -> 200`, async () => {
        expect((await fx.agent.get(url)).status).to.equal(200);
        expect((await fx.agent.get(url).set('Authorization', 'Bearer wrong')).status).to.equal(200);
      });
    }
  });
});
