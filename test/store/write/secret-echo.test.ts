/**
 * restoreSecrets: a PATCH's rpc_urls against the secret entries of the version served. A table of
 * what a client may send back and what is written, or refused.
 */
import { expect } from 'chai';
import { NetcfgError } from '../../../src/errors.js';
import { restoreSecrets, type SecretRights } from '../../../src/store/write/secret-echo.js';
import type { SecretEntry } from '../../../src/store/network-record.js';

const A: SecretEntry = {
  index: 0,
  name: 'A_URL',
  url: 'https://a.example.com/v2/ka',
  masked: 'https://a.example.com/v2/***',
  plain: true,
};
const B: SecretEntry = {
  index: 1,
  name: 'B_URL',
  url: 'https://a.example.com/v2/kb',
  masked: 'https://a.example.com/v2/***',
  plain: false,
};
const KNOWN = new Map([
  [A.url, A.name],
  [B.url, B.name],
  ['https://other.example.com/k', 'OTHER_URL'],
]);
const ref = (value: string) => ({ type: 'env', value });
const WRITER: SecretRights = { reveal: false, changeReferences: false };
const REVEALER: SecretRights = { reveal: true, changeReferences: true };
const ADMIN: SecretRights = { reveal: false, changeReferences: true };

describe('store/write/secret-echo: what a client sends back of a secret', () => {
  const written: Array<[string, unknown[], SecretRights, unknown[]]> = [
    [
      'masks, in order, each to its own reference',
      [A.masked, { url: B.masked, weight: 7 }],
      WRITER,
      [ref('A_URL'), { url: ref('B_URL'), weight: 7 }],
    ],
    ['a plain reference echoed at weight 100 keeps its form', [{ url: A.masked, weight: 100 }], WRITER, [ref('A_URL')]],
    [
      'a plain reference at another weight becomes {url, weight}',
      [{ url: A.masked, weight: 3, secret: true }],
      WRITER,
      [{ url: ref('A_URL'), weight: 3 }],
    ],
    [
      'a revealed value with secret: true',
      [{ url: B.url, weight: 9, secret: true }],
      REVEALER,
      [{ url: ref('B_URL'), weight: 9 }],
    ],
    [
      'a plain URL, secret: false dropped',
      [{ url: 'https://c.example.com', weight: 1, secret: false }],
      WRITER,
      [{ url: 'https://c.example.com', weight: 1 }],
    ],
    ['a revealer may write a value out', [A.url], REVEALER, [A.url]],
    ['a new reference, by a revealer', [ref('NEW_URL')], REVEALER, [ref('NEW_URL')]],
    ['a new reference, by an admin', [{ url: ref('NEW_URL'), weight: 5 }], ADMIN, [{ url: ref('NEW_URL'), weight: 5 }]],
    [
      'its references kept as references, in another place, by a writer',
      [{ url: ref('B_URL'), weight: 2 }, ref('A_URL')],
      WRITER,
      [{ url: ref('B_URL'), weight: 2 }, ref('A_URL')],
    ],
    [
      'one reference dropped, the other kept, by a writer',
      ['https://c.example.com', ref('B_URL')],
      WRITER,
      ['https://c.example.com', ref('B_URL')],
    ],
    ['every reference dropped, by a writer', ['https://c.example.com'], WRITER, ['https://c.example.com']],
  ];
  for (const [what, sent, reveal, expected] of written) {
    it(`writes ${what}`, () => {
      expect(restoreSecrets({ rpc_urls: sent }, [A, B], KNOWN, reveal)).to.deep.equal({ rpc_urls: expected });
    });
  }

  const refused: Array<[string, unknown[], string, RegExp]> = [
    ["another network's secret value", ['https://other.example.com/k'], 'FORBIDDEN', /value of a secret netcfg knows/],
    ["this network's value, unmarked, by a non-revealer", [A.url], 'FORBIDDEN', /A_URL/],
    ['a third mask of two secrets', [A.masked, B.masked, A.masked], 'VALIDATION_FAILED', /rpc_urls\[2\] holds \*\*\*/],
    [
      'marked secret, matching none',
      [{ url: 'https://c.example.com', weight: 1, secret: true }],
      'VALIDATION_FAILED',
      /marked secret/,
    ],
    [
      'a reference to a variable the network does not reference',
      [A.masked, ref('OTHER_URL')],
      'FORBIDDEN',
      /rpc_urls\[1\] names the environment variable OTHER_URL beyond the references this network has.*reveal_secrets or the admin role/,
    ],
    [
      "an entry's reference changed to another variable",
      [{ url: ref('NEW_URL'), weight: 5 }, B.masked],
      'FORBIDDEN',
      /rpc_urls\[0\] names the environment variable NEW_URL/,
    ],
    [
      'a reference the network has once, sent twice',
      [ref('A_URL'), A.masked],
      'FORBIDDEN',
      /rpc_urls\[1\] names the environment variable A_URL/,
    ],
  ];
  for (const [what, sent, code, message] of refused) {
    it(`refuses ${what}`, () => {
      let caught: unknown;
      try {
        restoreSecrets({ rpc_urls: sent }, [A, B], KNOWN, WRITER);
      } catch (err) {
        caught = err;
      }
      expect(caught).to.be.instanceOf(NetcfgError).and.include({ code });
      expect((caught as Error).message)
        .to.match(message)
        .and.not.include('/v2/k');
    });
  }
});
