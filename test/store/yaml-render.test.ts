/**
 * The direct rendering of common values is yaml's own text, character for character, or it
 * declines (null) and yaml renders.
 */
import { expect } from 'chai';
import { renderPlain, renderValue, renderWithYaml } from '../../src/store/yaml-render.js';

const STYLES: Array<{ flow: boolean; indent: number; eol: string }> = [
  { flow: false, indent: 0, eol: '\n' },
  { flow: false, indent: 2, eol: '\n' },
  { flow: false, indent: 4, eol: '\r\n' },
  { flow: true, indent: 2, eol: '\n' },
  { flow: true, indent: 0, eol: '\r\n' },
];

/** What rpc_urls holds in practice: each must take the direct path. */
const COMMON: unknown[] = [
  ['https://eth.example.com'],
  ['https://a.example.com/v1/key-123', 'wss://b.example.com:8546/ws?token=x&y=2'],
  [{ url: 'https://a.example.com', weight: 50 }, 'https://b.example.com'],
  [{ url: 'https://a.example.com/rpc', weight: 0 }, { url: 'https://c.example.com', weight: 100 }],
  [],
  'https://single.example.com',
  42,
];

/** Values the direct path must decline or get exactly right. */
const TRICKY: unknown[] = [
  ['true', 'False', 'NULL', 'null', 'Yes', 'on', '~', ''],
  ['a:', 'a:b', 'a: b', 'a #b', 'a#b', 'x,y', 'x]y', 'x}y', '-x', '?x', '1e3', '0x1F', '.inf'],
  ["it's", 'a"b', '"x', "'x", 'a b', ' a', 'a ', 'a\tb', 'é', 'https://x/#frag'],
  [{ url: 'https://a', weight: 1.5 }, { url: 'https://a', weight: -3 }, { 'a b': 'c' }, {}],
  [{ url: 'https://a', nested: ['x'] }, ['nested'], null, true, 1e21, Number.NaN],
  { url: 'https://a', weight: 5 },
  'true',
  null,
];

/** A seeded generator of strings from an alphabet rich in YAML indicators. */
function* randomStrings(count: number): Generator<string> {
  const alphabet = 'abcXYZ019.:/?#&=%+@!$*()\',;[]{}"~`-_ |>\t';
  let seed = 20261123;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let i = 0; i < count; i++) {
    let s = '';
    const length = 1 + (next() % 12);
    for (let j = 0; j < length; j++) s += alphabet[next() % alphabet.length];
    yield s;
  }
}

describe('store/yaml-render', () => {
  for (const value of COMMON) {
    it(`renders ${JSON.stringify(value)} directly, as yaml does`, () => {
      for (const { flow, indent, eol } of STYLES) {
        const direct = renderPlain(value, flow, indent, eol);
        expect(direct, `flow ${flow}`).to.be.a('string');
        expect(direct).to.equal(renderWithYaml(value, flow, indent, eol));
      }
    });
  }

  it('gets every tricky value exactly right, or leaves it to yaml', () => {
    for (const value of TRICKY) {
      const items = Array.isArray(value) ? [value, ...value.map((item) => [item])] : [value];
      for (const candidate of items) {
        for (const { flow, indent, eol } of STYLES) {
          const direct = renderPlain(candidate, flow, indent, eol);
          if (direct !== null) expect(direct, JSON.stringify(candidate)).to.equal(renderWithYaml(candidate, flow, indent, eol));
        }
      }
    }
  });

  it('agrees with yaml on 2,000 random strings, alone, in lists and as url values', () => {
    let direct = 0;
    for (const s of randomStrings(2000)) {
      for (const value of [s, [s, 'https://a.example.com'], [{ url: s, weight: 7 }]]) {
        for (const { flow, indent, eol } of STYLES) {
          const text = renderPlain(value, flow, indent, eol);
          if (text === null) continue;
          direct++;
          expect(text, JSON.stringify(value)).to.equal(renderWithYaml(value, flow, indent, eol));
        }
      }
    }
    expect(direct, 'some random strings take the direct path').to.be.greaterThan(100);
  });

  it('renderValue falls back to yaml for what the direct path declines', () => {
    const value = ['a #b', { url: 'https://a', weight: 1.5 }];
    expect(renderPlain(value, true, 0, '\n')).to.equal(null);
    expect(renderValue(value, true, 0, '\n')).to.equal('["a #b", {url: https://a, weight: 1.5}]');
  });
});
