/**
 * Secret references in a network file, through the loader's own entry point (parseNetworkFile) on
 * the file's text: resolved from a lookup, located when unset, judged by their values, served
 * masked, and never cached or written out resolved.
 */
import { expect } from 'chai';
import { parseNetworkFile } from '../../../src/store/validation/network-file.js';
import { networkOf, revealedNetworkOf, writtenNetworkOf } from '../../../src/store/network-record.js';
import { OPEN_POLICY, type UrlPolicy } from '../../../src/store/validation/url-rules.js';
import { parseNetworkId } from '../../../src/store/files/layout.js';
import { allowEvery } from '../../helpers/secret-lookup.js';

const ID = parseNetworkId('evm:keyed')!;
const ENV: Record<string, string> = {
  KEYED: 'https://eth.example.com/v2/k3y',
  LOOPBACK: 'http://127.0.0.1:8545/k3y',
  NOT_URL: 'k3y',
};
const policy = (more: Partial<UrlPolicy> = {}): UrlPolicy => ({ ...OPEN_POLICY, secrets: allowEvery(ENV), ...more });

describe('store/validation/secret-refs: {type: env, value: NAME} in rpc_urls', () => {
  const refused: Array<[string, string, UrlPolicy, { line: number; column: number; message: RegExp }]> = [
    [
      'an unset variable',
      'rpc_urls:\n  - type: env\n    value: UNSET\n',
      policy(),
      { line: 2, column: 5, message: /UNSET, which is not set/ },
    ],
    [
      'unset, as the url of {url, weight}',
      'rpc_urls:\n  - https://a.example.com\n  - url: {type: env, value: UNSET}\n    weight: 5\n',
      policy(),
      { line: 3, column: 10, message: /rpc_urls\[1\]\.url names the environment variable UNSET/ },
    ],
    [
      'a value that is not a URL',
      'rpc_urls:\n  - {type: env, value: NOT_URL}\n',
      policy(),
      { line: 2, column: 5, message: /\(the value of NOT_URL\) is not a valid absolute URL/ },
    ],
    [
      'a value the policy refuses',
      'rpc_urls:\n  - {type: env, value: LOOPBACK}\n',
      policy({ blockPrivate: true }),
      { line: 2, column: 5, message: /\(the value of LOOPBACK\) points to "127.0.0.1"/ },
    ],
    [
      'a type other than env',
      'rpc_urls:\n  - {type: vault, value: KEYED}\n',
      policy(),
      { line: 2, column: 12, message: /type/ },
    ],
    [
      'a name that is not a variable name',
      'rpc_urls:\n  - {type: env, value: "A-B"}\n',
      policy(),
      { line: 2, column: 24, message: /value/ },
    ],
  ];
  for (const [what, text, rules, where] of refused) {
    it(`refuses ${what}, located, without the value`, () => {
      const outcome = parseNetworkFile(text, ID, 'evm/keyed.yaml', rules);
      expect(outcome.ok, what).to.equal(false);
      if (outcome.ok) return;
      expect(outcome.problems[0]).to.include({ line: where.line, column: where.column });
      expect(outcome.problems[0]?.message).to.match(where.message).and.not.include('k3y');
    });
  }

  it('serves a set one masked with secret: true; revealed, written and exported views keep what each may hold', () => {
    const text =
      'rpc_urls:\n  - {type: env, value: KEYED}\n  - url: {type: env, value: KEYED2}\n    weight: 5\n  - https://public.example.com\n';
    const outcome = parseNetworkFile(
      text,
      ID,
      'evm/keyed.yaml',
      policy({ secrets: allowEvery({ ...ENV, KEYED2: 'https://b.example.com/key/abcdefgh' }) }),
    );
    expect(outcome.ok).to.equal(true);
    if (!outcome.ok) return;
    const { record } = outcome;
    expect(record.body).not.to.include('k3y').and.not.include('abcdefgh');
    expect(networkOf(record).rpc_urls).to.deep.equal([
      { url: 'https://eth.example.com/v2/***', weight: 100, secret: true },
      { url: 'https://b.example.com/key/***', weight: 5, secret: true },
      { url: 'https://public.example.com', weight: 100 },
    ]);
    expect((revealedNetworkOf(record).rpc_urls as Array<{ url: string }>).map((e) => e.url)).to.deep.equal([
      ENV.KEYED,
      'https://b.example.com/key/abcdefgh',
      'https://public.example.com',
    ]);
    expect(writtenNetworkOf(record).rpc_urls).to.deep.equal([
      { type: 'env', value: 'KEYED' },
      { url: { type: 'env', value: 'KEYED2' }, weight: 5 },
      'https://public.example.com',
    ]);
    expect(writtenNetworkOf(record, true).rpc_urls).to.deep.equal([
      ENV.KEYED,
      { url: 'https://b.example.com/key/abcdefgh', weight: 5 },
      'https://public.example.com',
    ]);
  });
});
