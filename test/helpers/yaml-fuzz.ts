/**
 * fast-check arbitraries for network files as hostile YAML: token soup built from every indicator
 * YAML has (anchors, aliases, tags, complex keys, block scalars, directives, document markers),
 * and valid network files with such tokens spliced in, so the parser gets past the first line and
 * the checks after it (toJS, the schema, the record) run too. Anchors and aliases share a few
 * names, so cycles, shared anchors and aliases to later anchors come up often.
 */
import fc from 'fast-check';

const anchorName = fc.constantFrom('a', 'b', 'x', 'u');
const scalar = fc.constantFrom(
  'rpc_urls',
  'chain_id',
  'https://a.example.com',
  'https://b.example.com/k/SECRET',
  'url',
  'weight',
  '100',
  '0',
  '-1',
  '99999999999999999999',
  '9007199254740993',
  '1e400',
  '.inf',
  '-.inf',
  '.nan',
  '0x1F',
  '0o17',
  'null',
  '~',
  'true',
  'no',
  '"quoted \\u0000 \\x41"',
  "'single ''q'''",
  '__proto__',
  'constructor',
  'id',
  'name',
  'network_type',
  'evm:x',
  '\u2028',
  '\ud800',
  '\uffff',
  '\u0000',
  '\t',
  'ü',
  '😀',
  '',
  '2001-12-14',
  'aGVsbG8=',
  'x'.repeat(300),
);
const token = fc.oneof(
  scalar,
  anchorName.map((n) => `&${n} `),
  anchorName.map((n) => `*${n}`),
  fc.constantFrom(
    '!!binary ',
    '!!timestamp ',
    '!!set ',
    '!!omap ',
    '!!pairs ',
    '!!map ',
    '!!seq ',
    '!!str ',
    '!!int ',
    '!!float ',
    '!!bool ',
    '!!null ',
    '!foo ',
    '!<tag:x> ',
    '! ',
  ),
  fc.constantFrom(': ', ':', '- ', '? ', '[', ']', '{', '}', ', ', '<<: ', '|', '>-', '|+2', '#c', ' # c', '"', "'"),
  fc.constantFrom('\n', '\n  ', '\n    ', '\n- ', '\r\n', '\t', ' '),
  fc.constantFrom('---\n', '...\n', '%YAML 1.1\n', '%YAML 1.2\n---\n', '%TAG ! tag:x,2000:\n---\n', '\ufeff'),
);

/** Tokens joined: mostly nonsense, sometimes a document, now and then something the parser has never seen. */
export const yamlSoup: fc.Arbitrary<string> = fc
  .array(token, { minLength: 1, maxLength: 40 })
  .map((parts) => parts.join(''));

const base = [
  '# a network',
  'rpc_urls:',
  '  - https://a.example.com',
  '  - url: https://b.example.com',
  '    weight: 50',
  'chain_id: 11155111',
  'symbol: ETH',
  'tags: [a, b]',
  'features:',
  '  - eip1559',
  '',
].join('\n');

/** A valid file with soup spliced in at a few places. */
export const mutatedNetwork: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.nat({ max: base.length }), yamlSoup), { minLength: 1, maxLength: 3 })
  .map((edits) => {
    let text = base;
    for (const [at, insert] of edits.sort((p, q) => q[0] - p[0])) text = text.slice(0, at) + insert + text.slice(at);
    return text;
  });

/** Anchors and aliases put where they bite: a loop, a shared rpc_urls, a billion laughs, a merge key. */
export const aliasShapes: fc.Arbitrary<string> = fc.constantFrom(
  'rpc_urls: ["https://a.example"]\nx: &x\n  y: *x\n',
  'rpc_urls: &u [https://a.example.com]\nbackup: *u\n',
  'defaults: &u [https://a.example.com]\nrpc_urls: *u\n',
  'rpc_urls: &r\n  - https://a.example.com\n  - *r\n',
  'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n' +
    'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n' +
    'rpc_urls: [https://a.example.com]\n',
  'base: &base {chain_id: 1}\n<<: *base\nrpc_urls: [https://a.example.com]\n',
  'rpc_urls: [https://a.example.com]\n*a : 1\n',
  'rpc_urls: [https://a.example.com]\n&k key: &v value\n*k : *v\n',
);

/** Every hostile shape above, weighted toward the ones that reach the checks after parsing. */
export const hostileYaml: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: yamlSoup, weight: 3 },
  { arbitrary: mutatedNetwork, weight: 5 },
  { arbitrary: aliasShapes, weight: 1 },
);
