/**
 * The PATCH validation table: one row per rule of update-network.schema.json and of the URL rules
 * beyond it, with the exact JSON Pointer(s) the 400 must name. Kept apart from the test so the
 * table reads as the contract.
 */
import type { UrlPolicy } from '../../src/store/validation/url-rules.js';

export interface ValidationRow {
  rule: string;
  body: unknown;
  /** Every pointer the details must list, and no other. */
  pointers: string[];
}

const ok = 'https://ok.example.com';
const many = (n: number): string[] => Array.from({ length: n }, (_, i) => `https://rpc${i}.example.com`);

export const SCHEMA_ROWS: ValidationRow[] = [
  { rule: 'an unknown top-level field', body: { rpc_urls: [ok], chain_id: 5 }, pointers: ['/chain_id'] },
  { rule: 'an empty object', body: {}, pointers: ['/rpc_urls'] },
  { rule: 'rpc_urls null', body: { rpc_urls: null }, pointers: ['/rpc_urls'] },
  { rule: 'a body that is an array', body: [ok], pointers: [''] },
  { rule: 'a body that is a number', body: 42, pointers: [''] },
  { rule: 'rpc_urls a string', body: { rpc_urls: ok }, pointers: ['/rpc_urls'] },
  { rule: 'rpc_urls empty (min 1)', body: { rpc_urls: [] }, pointers: ['/rpc_urls'] },
  { rule: 'rpc_urls with 33 entries (max 32)', body: { rpc_urls: many(33) }, pointers: ['/rpc_urls'] },
  { rule: 'an entry that is a number', body: { rpc_urls: [ok, 5] }, pointers: ['/rpc_urls/1'] },
  { rule: 'an entry that is null', body: { rpc_urls: [null] }, pointers: ['/rpc_urls/0'] },
  { rule: 'an entry without weight', body: { rpc_urls: [{ url: ok }] }, pointers: ['/rpc_urls/0/weight'] },
  { rule: 'an entry without url', body: { rpc_urls: [{ weight: 5 }] }, pointers: ['/rpc_urls/0/url'] },
  {
    rule: 'an entry with an extra key',
    body: { rpc_urls: [{ url: ok, weight: 5, name: 'a' }] },
    pointers: ['/rpc_urls/0/name'],
  },
  {
    rule: 'weight above 100',
    body: { rpc_urls: [ok, { url: 'https://b.example.com', weight: 101 }] },
    pointers: ['/rpc_urls/1/weight'],
  },
  {
    rule: 'weight below 0',
    body: { rpc_urls: [ok, { url: 'https://b.example.com', weight: -1 }] },
    pointers: ['/rpc_urls/1/weight'],
  },
  { rule: 'weight not an integer', body: { rpc_urls: [{ url: ok, weight: 1.5 }] }, pointers: ['/rpc_urls/0/weight'] },
  { rule: 'weight a string', body: { rpc_urls: [{ url: ok, weight: '50' }] }, pointers: ['/rpc_urls/0/weight'] },
  { rule: 'url not a string', body: { rpc_urls: [{ url: 7, weight: 50 }] }, pointers: ['/rpc_urls/0/url'] },
  {
    rule: 'a plain entry that is not http(s)',
    body: { rpc_urls: ['ftp://files.example.com'] },
    pointers: ['/rpc_urls/0'],
  },
  {
    rule: 'a weighted url that is not http(s)',
    body: { rpc_urls: [{ url: 'wss://ws.example.com', weight: 5 }] },
    pointers: ['/rpc_urls/0/url'],
  },
  { rule: 'a relative url', body: { rpc_urls: ['/rpc'] }, pointers: ['/rpc_urls/0'] },
  { rule: 'an empty url', body: { rpc_urls: [''] }, pointers: ['/rpc_urls/0'] },
  { rule: 'a url with a space', body: { rpc_urls: ['https://rpc.example.com/a b'] }, pointers: ['/rpc_urls/0'] },
  {
    rule: 'a url with a tab',
    body: { rpc_urls: [{ url: 'https://rpc.example.com/\tb', weight: 5 }] },
    pointers: ['/rpc_urls/0/url'],
  },
  {
    rule: 'a url of 2049 characters',
    body: { rpc_urls: [`https://rpc.example.com/${'a'.repeat(2025)}`] },
    pointers: ['/rpc_urls/0'],
  },
];

export const URL_RULE_ROWS: ValidationRow[] = [
  { rule: 'a url that does not parse', body: { rpc_urls: [ok, 'https://[bad'] }, pointers: ['/rpc_urls/1'] },
  {
    rule: 'a url that does not parse (weighted)',
    body: { rpc_urls: [{ url: 'http://exa%mple.com', weight: 5 }] },
    pointers: ['/rpc_urls/0/url'],
  },
  { rule: 'the same url twice', body: { rpc_urls: [ok, ok] }, pointers: ['/rpc_urls/1'] },
  {
    rule: 'the same url twice (weighted second)',
    body: { rpc_urls: [ok, { url: ok, weight: 5 }] },
    pointers: ['/rpc_urls/1/url'],
  },
  {
    rule: 'the same url twice after normalisation',
    body: { rpc_urls: ['https://OK.example.com', `${ok}/`] },
    pointers: ['/rpc_urls/1'],
  },
  {
    rule: 'every weight 0',
    body: {
      rpc_urls: [
        { url: ok, weight: 0 },
        { url: 'https://b.example.com', weight: 0 },
      ],
    },
    pointers: ['/rpc_urls'],
  },
  // A weight of -1 is invalid, not "disabled": it is reported once, where it is.
  {
    rule: 'a lone negative weight is not also "all disabled"',
    body: { rpc_urls: [{ url: ok, weight: -1 }] },
    pointers: ['/rpc_urls/0/weight'],
  },
];

/** Control characters, invisible formatting and lone surrogates in a URL, sent as JSON escapes. */
export const HIDDEN_CHARACTER_ROWS: ValidationRow[] = [
  { rule: 'a NUL in the path', body: { rpc_urls: ['https://rpc.example.com/\u0000'] }, pointers: ['/rpc_urls/0'] },
  {
    rule: 'a BEL in the query',
    body: { rpc_urls: [ok, 'https://rpc.example.com/?a=\u0007'] },
    pointers: ['/rpc_urls/1'],
  },
  {
    rule: 'terminal escapes (ESC)',
    body: { rpc_urls: [{ url: 'https://rpc.example.com/\u001b[2J\u001b]0;owned\u0007', weight: 5 }] },
    pointers: ['/rpc_urls/0/url'],
  },
  { rule: 'a DEL', body: { rpc_urls: ['https://rpc.example.com/\u007f'] }, pointers: ['/rpc_urls/0'] },
  { rule: 'a C1 control (CSI)', body: { rpc_urls: ['https://rpc.example.com/\u009b31m'] }, pointers: ['/rpc_urls/0'] },
  { rule: 'a backspace', body: { rpc_urls: ['https://rpc.example.com/abc\u0008\u0008'] }, pointers: ['/rpc_urls/0'] },
  { rule: 'a lone high surrogate', body: { rpc_urls: ['https://rpc.example.com/\ud83d'] }, pointers: ['/rpc_urls/0'] },
  {
    rule: 'a lone low surrogate (weighted)',
    body: { rpc_urls: [ok, { url: 'https://rpc.example.com/\ude00', weight: 1 }] },
    pointers: ['/rpc_urls/1/url'],
  },
  {
    rule: 'a right-to-left override',
    body: { rpc_urls: ['https://rpc.example.com/\u202e1v'] },
    pointers: ['/rpc_urls/0'],
  },
];

/** Several problems at once: each must be listed, schema problems and URL-rule problems alike. */
export const MULTI_ROWS: ValidationRow[] = [
  {
    rule: 'three schema problems',
    body: { rpc_urls: [{ url: ok, weight: 101 }, 5, { url: 'ftp://x.example.com', weight: 1 }], extra: true },
    pointers: ['/rpc_urls/0/weight', '/rpc_urls/1', '/rpc_urls/2/url', '/extra'],
  },
  {
    rule: 'two URL-rule problems',
    body: { rpc_urls: [ok, ok, 'https://[bad'] },
    pointers: ['/rpc_urls/1', '/rpc_urls/2'],
  },
  {
    rule: 'a schema problem and a URL-rule problem',
    body: { rpc_urls: [{ url: ok, weight: 101 }, 'https://[bad'] },
    pointers: ['/rpc_urls/0/weight', '/rpc_urls/1'],
  },
];

export interface PolicyRow {
  rule: string;
  policy: UrlPolicy;
  url: string;
  status: 200 | 400;
}

const blockPrivate: UrlPolicy = { blockPrivate: true, allowedHosts: [] };
const allowOne: UrlPolicy = { blockPrivate: false, allowedHosts: ['rpc.allowed.com'] };

export const POLICY_ROWS: PolicyRow[] = [
  { rule: 'RPC_BLOCK_PRIVATE_IPS: loopback v4', policy: blockPrivate, url: 'http://127.0.0.1:8545', status: 400 },
  { rule: 'RPC_BLOCK_PRIVATE_IPS: localhost', policy: blockPrivate, url: 'http://localhost:8545', status: 400 },
  { rule: 'RPC_BLOCK_PRIVATE_IPS: private 10/8', policy: blockPrivate, url: 'https://10.1.2.3', status: 400 },
  {
    rule: 'RPC_BLOCK_PRIVATE_IPS: cloud metadata',
    policy: blockPrivate,
    url: 'http://169.254.169.254/latest',
    status: 400,
  },
  { rule: 'RPC_BLOCK_PRIVATE_IPS: loopback v6', policy: blockPrivate, url: 'http://[::1]:8545', status: 400 },
  {
    rule: 'RPC_BLOCK_PRIVATE_IPS: IPv4-compatible loopback',
    policy: blockPrivate,
    url: 'http://[::127.0.0.1]:8545',
    status: 400,
  },
  {
    rule: 'RPC_BLOCK_PRIVATE_IPS: NAT64 of cloud metadata',
    policy: blockPrivate,
    url: 'http://[64:ff9b::169.254.169.254]/latest',
    status: 400,
  },
  {
    rule: 'RPC_BLOCK_PRIVATE_IPS: local-use NAT64',
    policy: blockPrivate,
    url: 'http://[64:ff9b:1::a00:1]',
    status: 400,
  },
  {
    rule: 'RPC_BLOCK_PRIVATE_IPS: 6to4 of a private address',
    policy: blockPrivate,
    url: 'https://[2002:c0a8:101::1]',
    status: 400,
  },
  { rule: 'RPC_BLOCK_PRIVATE_IPS: site-local v6', policy: blockPrivate, url: 'http://[fec0::1]:8545', status: 400 },
  {
    rule: 'RPC_BLOCK_PRIVATE_IPS: a public v6 address passes',
    policy: blockPrivate,
    url: 'https://[2606:4700:4700::1111]',
    status: 200,
  },
  {
    rule: 'RPC_BLOCK_PRIVATE_IPS: a public host passes',
    policy: blockPrivate,
    url: 'https://rpc.public.com',
    status: 200,
  },
  { rule: 'RPC_ALLOWED_HOSTS: another host', policy: allowOne, url: 'https://rpc.other.com', status: 400 },
  {
    rule: 'RPC_ALLOWED_HOSTS: the allowed host passes',
    policy: allowOne,
    url: 'https://rpc.allowed.com/v1',
    status: 200,
  },
];
