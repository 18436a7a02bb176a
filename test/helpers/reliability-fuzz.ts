/**
 * fast-check arbitraries for PATCH requests: bodies as raw bytes (so duplicate keys, `__proto__`
 * keys, unescaped control characters and invalid UTF-8 reach the server as written) and the
 * headers that change how a body is read. Roughly a third of the bodies are valid, so the write
 * path itself is exercised, not only the refusals.
 */
import fc from 'fast-check';

export interface FuzzCase {
  kind: string;
  body: Buffer;
  contentType: string | undefined;
  /** 'current' is replaced by the file's ETag when the case runs. */
  ifMatch: string | undefined;
  contentEncoding: string | undefined;
  chunked: boolean;
  path: string;
}

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');
const nasty = fc.constantFrom(
  '\u0000',
  '\u0001',
  '\n',
  '\r',
  '\t',
  '\u001b',
  '\u007f',
  '\u2028',
  '\ud800',
  '\uffff',
  '\u202e',
  '%00',
  '..',
  '/',
  '\\',
);
const nastyText = fc
  .array(fc.oneof(nasty, fc.string({ unit: 'binary-ascii', maxLength: 3 })), { maxLength: 6 })
  .map((a) => a.join(''));
const host = fc.constantFrom(
  'a.example.com',
  'rpc.example.com',
  'localhost',
  '10.0.0.1',
  '[::1]',
  'xn--80ak6aa92e.com',
);
const url = fc.oneof(
  fc
    .tuple(fc.constantFrom('https', 'http'), host, fc.string({ unit: 'grapheme-ascii', maxLength: 8 }))
    .map(([s, h, p]) => `${s}://${h}/${encodeURIComponent(p)}`),
  fc.webUrl(),
  fc.tuple(host, nastyText).map(([h, t]) => `https://${h}/${t}`),
  nastyText,
  fc.constantFrom(
    '',
    'ftp://a.example.com',
    'javascript:alert(1)',
    'https://',
    'https:// a.example.com',
    'file:///etc/passwd',
  ),
);
const entry = fc.oneof(
  url,
  fc.record({ url, weight: fc.oneof(fc.integer({ min: -5, max: 105 }), fc.constantFrom(0, 100, 1.5, -0)) }),
);
const validEntry = fc.record({
  url: fc.integer({ min: 0, max: 1e6 }).map((n) => `https://n${n}.example.com/rpc`),
  weight: fc.integer({ min: 1, max: 100 }),
});
const validText = fc
  .uniqueArray(validEntry, { minLength: 1, maxLength: 4, selector: (e) => e.url })
  .map((rpc) => JSON.stringify({ rpc_urls: rpc }));
const evilKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  'hasOwnProperty',
  'toString',
  'valueOf',
);
const number = fc.constantFrom(
  '1e400',
  '-1e400',
  '1e-400',
  '123456789012345678901234567890',
  '9007199254740993',
  '-0',
  '1.0',
  '100.0',
  '1E2',
  '0x10',
  'NaN',
  'Infinity',
  '01',
  '+1',
  '.5',
  '5.',
);

const bodies: Array<[string, fc.Arbitrary<Buffer>, number]> = [
  ['valid', validText.map(utf8), 10],
  ['entries', fc.array(entry, { minLength: 0, maxLength: 5 }).map((rpc) => utf8(JSON.stringify({ rpc_urls: rpc }))), 6],
  ['json', fc.jsonValue({ maxDepth: 4 }).map((v) => utf8(JSON.stringify(v))), 4],
  [
    'evil keys',
    fc.tuple(evilKey, fc.jsonValue({ maxDepth: 2 }), validText, fc.nat(2)).map(([k, v, valid, where]) => {
      const payload = `"${k}":${JSON.stringify(v)}`;
      const polluting = `"${k}":{"polluted":"yes","prototype":{"polluted":"yes"}}`;
      const inner = valid.slice(0, -1); // `{"rpc_urls":[...]`
      if (where === 0) return utf8(`{${payload},${polluting},${inner.slice(1)}}`);
      if (where === 1) return utf8(`${inner.replace('"weight"', `${polluting},"weight"`)}}`);
      return utf8(`{${polluting}}`);
    }),
    5,
  ],
  [
    'deep',
    fc.tuple(fc.integer({ min: 1, max: 30_000 }), fc.constantFrom('[', '{"a":', '{"rpc_urls":[')).map(([n, open]) => {
      const close = open === '[' ? ']' : open === '{"a":' ? '}' : ']}';
      return utf8(`${open.repeat(n)}${open === '[' ? '' : '1'}${close.repeat(n)}`);
    }),
    3,
  ],
  ['numbers', number.map((n) => utf8(`{"rpc_urls":[{"url":"https://a.example.com","weight":${n}}]}`)), 3],
  ['control chars raw', nastyText.map((t) => utf8(`{"rpc_urls":["https://a.example.com/${t}"]}`)), 3],
  [
    'wrong types',
    fc
      .constantFrom(
        'null',
        'true',
        '1',
        '"str"',
        '{}',
        '[[]]',
        '[null]',
        '[1]',
        '[true]',
        '[{}]',
        '[{"url":1,"weight":"1"}]',
        '[{"url":"https://a.example.com"}]',
      )
      .map((v) => utf8(`{"rpc_urls":${v}}`)),
    3,
  ],
  [
    'duplicate keys',
    fc
      .tuple(validText, fc.jsonValue({ maxDepth: 2 }))
      .map(([valid, other]) => utf8(`{"rpc_urls":${JSON.stringify(other)},${valid.slice(1)}`)),
    3,
  ],
  [
    'giant array',
    fc
      .integer({ min: 33, max: 5000 })
      .map((n) =>
        utf8(JSON.stringify({ rpc_urls: Array.from({ length: n }, (_, i) => `https://a.example.com/${i}`) })),
      ),
    2,
  ],
  [
    'non-utf8',
    fc
      .tuple(validText, fc.uint8Array({ minLength: 1, maxLength: 6, min: 0x80, max: 0xff }), fc.nat())
      .map(([valid, bytes, at]) => {
        const text = utf8(valid);
        const cut = 10 + (at % Math.max(1, text.length - 12)); // inside the first URL, mostly
        return Buffer.concat([text.subarray(0, cut), Buffer.from(bytes), text.subarray(cut)]);
      }),
    3,
  ],
  ['random bytes', fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)), 2],
  ['truncated', fc.tuple(validText, fc.nat()).map(([valid, at]) => utf8(valid.slice(0, at % valid.length))), 2],
  [
    'huge',
    fc
      .integer({ min: 60_000, max: 200_000 })
      .map((n) => utf8(`{"rpc_urls":["https://a.example.com/${'x'.repeat(n)}"]}`)),
    1,
  ],
];

const headerValue = fc
  .string({ unit: 'binary-ascii', maxLength: 40 })
  .filter((s) => /^[\x20-\x7e]*$/.test(s) && s.trim() === s);
const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      'application/merge-patch+json',
      'application/json; charset=utf-8',
      'application/json; charset=UTF-8',
    ),
    weight: 4,
  },
  {
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json; charset=bogus',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '*/*',
      'application/*',
      'application/json;',
      'APPLICATION/JSON',
      'application/jsonx',
      '',
    ),
    weight: 4,
  },
  { arbitrary: headerValue, weight: 1 },
);
const ifMatch = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 10 },
  { arbitrary: fc.constantFrom('current', '*', '"bogus"', 'W/current', 'current, "x"', '"x", current', ''), weight: 4 },
  { arbitrary: headerValue, weight: 1 },
);
const contentEncoding = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 12 },
  { arbitrary: fc.constantFrom('identity', 'gzip', 'deflate', 'br', 'x-custom', 'gzip, gzip'), weight: 2 },
);

export const fuzzCase: fc.Arbitrary<FuzzCase> = fc
  .tuple(
    fc.oneof(...bodies.map(([kind, arb, weight]) => ({ arbitrary: arb.map((body) => ({ kind, body })), weight }))),
    contentType,
    ifMatch,
    contentEncoding,
    fc.boolean(),
    fc.constantFrom('/api/v1/networks/evm:sepolia', '/networks/evm:sepolia', '/api/v1/networks/evm%3Asepolia'),
  )
  .map(([{ kind, body }, ct, im, ce, chunked, path]) => ({
    kind,
    body,
    contentType: ct,
    ifMatch: im,
    contentEncoding: ce,
    chunked,
    path,
  }));
