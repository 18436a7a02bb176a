/**
 * Who may write what of a secret, on the built server: a write token without reveal_secrets may keep
 * and drop the references a network has but not add or change one (403), a revealing token or an
 * admin may; and the plain-value guard refuses a secret's value, or its key, in every spelling
 * (403 unless the token reveals) while honest URLs pass.
 */
import { expect } from 'chai';
import {
  BASE,
  HOLESKY_KEY,
  KEY,
  SEPOLIA_MASK,
  secretsIn,
  startSecretWorld,
  TOKENS,
  type SecretWorld,
} from '../helpers/secret-refs-world.js';

const PUBLIC = { url: 'https://public.example.com', weight: 10 };
const ref = (value: string) => ({ type: 'env', value });
const NEEDS =
  / beyond the references this network has: adding or changing a secret reference needs a token with reveal_secrets or the admin role/;

describe('secret references and values in a PATCH: roles and spellings (built server)', function () {
  this.timeout(60_000);
  let world: SecretWorld;
  beforeEach(async () => (world = await startSecretWorld()));
  afterEach(async () => world.stop());

  it('a writer without reveal keeps and drops references, adds or changes none; a revealer or an admin adds', async () => {
    const cases: Array<[string, string, unknown[], number, RegExp]> = [
      ['writer adds an allowed, set variable', TOKENS.writer, [SEPOLIA_MASK, PUBLIC, ref('ETH_OTHER_URL')], 403, NEEDS],
      [
        'writer adds a variable no glob allows: the same 403',
        TOKENS.writer,
        [SEPOLIA_MASK, PUBLIC, ref('SOL_SECRET_URL')],
        403,
        NEEDS,
      ],
      ['writer changes which variable the entry names', TOKENS.writer, [ref('ETH_OTHER_URL'), PUBLIC], 403, NEEDS],
      [
        'writer names the same variable twice',
        TOKENS.writer,
        [SEPOLIA_MASK, PUBLIC, { url: ref('ETH_SEPOLIA_URL'), weight: 5 }],
        403,
        NEEDS,
      ],
      [
        'writer keeps it as the mask',
        TOKENS.writer,
        [SEPOLIA_MASK, { ...PUBLIC, weight: 20 }],
        200,
        /value: ETH_SEPOLIA_URL/,
      ],
      [
        'writer keeps it as the reference, elsewhere',
        TOKENS.writer,
        [PUBLIC, { url: ref('ETH_SEPOLIA_URL'), weight: 30 }],
        200,
        /value: ETH_SEPOLIA_URL/,
      ],
      ['writer removes it', TOKENS.writer, [PUBLIC], 200, /^(?![\s\S]*type: env)/],
      ['revealer adds one', TOKENS.revealer, [SEPOLIA_MASK, PUBLIC, ref('ETH_OTHER_URL')], 200, /value: ETH_OTHER_URL/],
      [
        'admin (API_KEY) adds one',
        TOKENS.admin,
        [SEPOLIA_MASK, PUBLIC, ref('ETH_OTHER_URL')],
        200,
        /value: ETH_OTHER_URL/,
      ],
    ];
    const answers: string[] = [];
    for (const [what, token, rpcUrls, status, says] of cases) {
      await world.serve(BASE);
      const res = await world.patch(token, rpcUrls);
      expect(res.status, `${what}: ${res.text}`).to.equal(status);
      if (status === 403) {
        expect(res.body.code, what).to.equal('FORBIDDEN');
        expect(res.body.error, what).to.match(says);
        expect(world.file(), `${what}: nothing written`).to.equal(BASE);
      } else {
        expect(world.file(), what).to.match(says);
      }
      if (token !== TOKENS.revealer) answers.push(res.text);
    }
    expect(secretsIn(answers.join('\n')), 'a value in an answer').to.deep.equal([]);
  });

  it('the value of a secret, or its key, in any spelling is 403 for a writer without reveal; honest URLs pass', async () => {
    const encoded = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    const refused: Array<[string, string]> = [
      ['the scheme upper-cased', `HTTPS://eth-sepolia.g.alchemy.com/v2/${KEY}`],
      ['the host upper-cased', `https://ETH-SEPOLIA.G.ALCHEMY.COM/v2/${KEY}`],
      ['the default port', `https://eth-sepolia.g.alchemy.com:443/v2/${KEY}`],
      ['a trailing slash', `https://eth-sepolia.g.alchemy.com/v2/${KEY}/`],
      ['doubled slashes', `https://eth-sepolia.g.alchemy.com//v2//${KEY}`],
      ['the key percent-encoded', `https://eth-sepolia.g.alchemy.com/v2/${encoded}`],
      ['the key in user-info', `https://${KEY}@eth-sepolia.g.alchemy.com/v2/`],
      ['the key as a query value', `https://eth-sepolia.g.alchemy.com/v2/?key=${KEY}`],
      ['the key on another host', `https://mirror.example.net/eth/${KEY}`],
      ["another network's secret, HTTP://", `HTTP://RPC.EXAMPLE.ORG/holesky/${HOLESKY_KEY}`],
      ["another network's secret, :80", `http://rpc.example.org:80/holesky/${HOLESKY_KEY}`],
    ];
    const answers: string[] = [];
    for (const [what, url] of refused) {
      const res = await world.patch(TOKENS.writer, [PUBLIC, { url, weight: 5 }]); // the reference dropped, its value written out instead
      answers.push(res.text);
      expect(res.status, `${what}: ${res.text}`).to.equal(403);
      expect(res.body.error, what).to.match(
        /^rpc_urls\[1\] holds the value of (the secret ETH_SEPOLIA_URL|a secret netcfg knows), or a part of it/,
      );
      expect(world.file(), `${what}: nothing written`).to.equal(BASE);
    }
    expect(secretsIn(answers.join('\n')), 'a value in an answer').to.deep.equal([]);
    const honest: Array<[string, string]> = [
      ['the same provider, another key', 'https://eth-sepolia.g.alchemy.com/v2/An0therKeyValue'],
      ["words of the secrets' paths", 'https://public.example.com/v2/holesky'],
    ];
    for (const [what, url] of honest) {
      await world.serve(BASE);
      const res = await world.patch(TOKENS.writer, [SEPOLIA_MASK, { url, weight: 5 }]);
      expect(res.status, `${what}: ${res.text}`).to.equal(200);
    }
    await world.serve(BASE);
    const onPurpose = await world.patch(TOKENS.revealer, [
      { url: `HTTPS://eth-sepolia.g.alchemy.com/v2/${KEY}/`, weight: 5 },
      PUBLIC,
    ]);
    expect(onPurpose.status, 'a revealer may, on purpose').to.equal(200);
  });
});
