/**
 * RPC URL rules beyond the schema: http(s) only, no whitespace, a length cap, each URL once, one
 * enabled endpoint, and the two policies (RPC_BLOCK_PRIVATE_IPS, RPC_ALLOWED_HOSTS).
 */
import { expect } from 'chai';
import {
  MAX_URL_LENGTH,
  OPEN_POLICY,
  checkRpcUrls,
  checkUrl,
  isInternalHost,
  normaliseEntry,
  type UrlPolicy,
} from '../../../src/store/validation/url-rules.js';

const BLOCK: UrlPolicy = { blockPrivate: true, allowedHosts: [] };
const ALLOW: UrlPolicy = { blockPrivate: false, allowedHosts: ['rpc.example.com'] };

function longUrl(length: number): string {
  const base = 'https://rpc.example.com/';
  return base + 'a'.repeat(length - base.length);
}

describe('store/url-rules', () => {
  describe('checkUrl (open policy)', () => {
    const rows: Array<{ url: string; problem: RegExp | null }> = [
      { url: 'https://rpc.example.com', problem: null },
      { url: 'http://rpc.example.com:8545/v1/key?x=1', problem: null },
      { url: 'HTTPS://RPC.EXAMPLE.COM', problem: null },
      { url: 'http://localhost:8545', problem: null },
      { url: 'http://10.0.0.1', problem: null },
      { url: longUrl(MAX_URL_LENGTH), problem: null },
      { url: longUrl(MAX_URL_LENGTH + 1), problem: /longer than 2048/ },
      { url: 'ftp://rpc.example.com', problem: /http:\/\/ or https:\/\// },
      { url: 'ws://rpc.example.com', problem: /http:\/\/ or https:\/\// },
      { url: 'file:///etc/passwd', problem: /http:\/\/ or https:\/\// },
      { url: 'javascript:alert(1)', problem: /http:\/\/ or https:\/\// },
      { url: 'https://rpc.exa mple.com', problem: /whitespace/ },
      { url: ' https://rpc.example.com', problem: /whitespace/ },
      { url: 'https://rpc.example.com\n', problem: /whitespace/ },
      { url: 'https://rpc.example.com/\t', problem: /whitespace/ },
      // Control and invisible characters, and lone surrogates: URL parsing would encode them away.
      { url: 'https://rpc.example.com/\u0000', problem: /control characters.*U\+0000 at character 25/ },
      { url: 'https://rpc.example.com/a\u0007', problem: /U\+0007 at character 26/ },
      { url: 'https://rpc.example.com/\u001b[2J\u001b[31mkey', problem: /U\+001B at character 25/ },
      { url: 'https://rpc.exam\u001bple.com', problem: /U\+001B/ },
      { url: 'https://rpc.example.com/?k=\u007f', problem: /U\+007F/ },
      { url: 'https://rpc.example.com/\u009b31m', problem: /U\+009B/ },
      { url: 'https://rpc.example.com/\ud800', problem: /lone UTF-16 surrogates.*U\+D800/ },
      { url: 'https://rpc.example.com/\udc00x', problem: /U\+DC00/ },
      { url: 'https://rpc.example.com/a\u200bb', problem: /invisible formatting characters.*U\+200B/ },
      { url: 'https://rpc.example.com/\u202egpj.exe', problem: /U\+202E/ },
      { url: 'https://rpc.example.com/\u{1F600}', problem: null },
      { url: 'https://bücher.example/v1', problem: null },
      { url: 'rpc.example.com', problem: /not a valid absolute URL/ },
      { url: 'https://', problem: /not a valid absolute URL/ },
      { url: '', problem: /not a valid absolute URL/ },
    ];
    for (const { url, problem } of rows) {
      it(`${JSON.stringify(url.length > 50 ? `${url.slice(0, 30)}...(${url.length})` : url)} -> ${problem ?? 'ok'}`, () => {
        const got = checkUrl(url, OPEN_POLICY);
        if (problem === null) expect(got).to.equal(null);
        else expect(got).to.match(problem);
      });
    }
  });

  describe('checkUrl with RPC_BLOCK_PRIVATE_IPS', () => {
    const blocked = [
      'http://localhost:8545',
      'http://LOCALHOST',
      'http://anvil.localhost',
      'http://127.0.0.1:8545',
      'http://127.8.9.10',
      'http://127.1',
      'http://2130706433',
      'http://0x7f.0.0.1',
      'http://0.0.0.0',
      'http://10.1.2.3',
      'http://172.16.0.1',
      'http://172.31.255.255',
      'http://192.168.1.1',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1',
      'http://224.0.0.1',
      'http://[::1]:8545',
      'http://[::]',
      'http://[fc00::]',
      'http://[fd12:3456::1]',
      'http://[fe80::1]',
      'http://[::ffff:127.0.0.1]',
      'http://[::ffff:10.0.0.1]',
      'http://[::ffff:169.254.169.254]',
      'http://metadata.google.internal/computeMetadata/v1',
      'http://metadata',
      'http://instance-data.ec2.internal',
      // A trailing dot names the same host (an absolute DNS name): it must not slip through.
      'http://localhost.:8545',
      'http://metadata.google.internal./computeMetadata/v1',
    ];
    for (const url of blocked) {
      it(`refuses ${url}`, () => {
        expect(checkUrl(url, BLOCK)).to.match(/RPC_BLOCK_PRIVATE_IPS/);
      });
    }

    const allowed = [
      'https://rpc.example.com',
      'http://8.8.8.8',
      'http://172.15.0.1',
      'http://172.32.0.1',
      'http://192.169.0.1',
      'http://[2001:4860:4860::8888]',
      'http://[::ffff:8.8.8.8]',
      'https://localhost.example.com',
    ];
    for (const url of allowed) {
      it(`accepts ${url}`, () => {
        expect(checkUrl(url, BLOCK)).to.equal(null);
      });
    }
  });

  describe('RPC_BLOCK_PRIVATE_IPS: IPv6 addresses, as DNS answers them and as a URL writes them', () => {
    // Each address through isInternalHost (what the prober's connect-time lookup asks) and as a URL
    // literal through checkUrl (where WHATWG's URL rewrites it in hex: ::127.0.0.1 becomes [::7f00:1]).
    const rows: Array<{ address: string; internal: boolean; why: string }> = [
      { address: '::1', internal: true, why: 'loopback' },
      { address: '::', internal: true, why: 'unspecified' },
      { address: '::ffff:127.0.0.1', internal: true, why: 'IPv4-mapped loopback' },
      { address: '::ffff:7f00:1', internal: true, why: 'IPv4-mapped loopback, in hex' },
      { address: '::ffff:10.1.2.3', internal: true, why: 'IPv4-mapped private' },
      { address: '::ffff:8.8.8.8', internal: false, why: 'IPv4-mapped public' },
      { address: '::127.0.0.1', internal: true, why: 'IPv4-compatible loopback' },
      { address: '::7f00:1', internal: true, why: 'IPv4-compatible loopback, in hex' },
      { address: '::a9fe:a9fe', internal: true, why: 'IPv4-compatible cloud metadata' },
      { address: '::192.168.0.1', internal: true, why: 'IPv4-compatible private' },
      { address: '::8.8.8.8', internal: false, why: 'IPv4-compatible public' },
      { address: '64:ff9b::127.0.0.1', internal: true, why: 'NAT64 of loopback' },
      { address: '64:ff9b::a9fe:a9fe', internal: true, why: 'NAT64 of cloud metadata' },
      { address: '64:ff9b::10.0.0.1', internal: true, why: 'NAT64 of private' },
      { address: '64:ff9b::808:808', internal: false, why: 'NAT64 of public' },
      { address: '64:ff9b:1::a00:1', internal: true, why: 'local-use NAT64 (64:ff9b:1::/48)' },
      { address: '64:ff9b:1:ffff::1', internal: true, why: 'local-use NAT64, anywhere in the /48' },
      { address: '2002:7f00:1::', internal: true, why: '6to4 of loopback' },
      { address: '2002:a9fe:a9fe::1', internal: true, why: '6to4 of cloud metadata' },
      { address: '2002:c0a8:101:1::1', internal: true, why: '6to4 of private' },
      { address: '2002:808:808::1', internal: false, why: '6to4 of public' },
      { address: '2001:0:4136:e378:8000:63bf:3fff:fdd2', internal: true, why: 'Teredo (refused whole)' },
      { address: '2001:2::1', internal: true, why: 'benchmarking (2001:2::/48)' },
      { address: '2001:db8::1', internal: true, why: 'documentation' },
      { address: '3fff::1', internal: true, why: 'documentation (3fff::/20)' },
      { address: 'fec0::1', internal: true, why: 'site-local' },
      { address: 'feff::1', internal: true, why: 'site-local, top of fec0::/10' },
      { address: 'fe80::1', internal: true, why: 'link-local' },
      { address: 'fe80::1%eth0', internal: true, why: 'link-local with a zone, as a lookup may answer' },
      { address: 'fc00::1', internal: true, why: 'unique-local' },
      { address: 'fd00:ec2::254', internal: true, why: 'unique-local: AWS metadata' },
      { address: 'ff02::1', internal: true, why: 'multicast' },
      { address: 'ff0e::1', internal: true, why: 'multicast, global scope' },
      { address: '100::1', internal: true, why: 'discard-only (100::/64)' },
      { address: '::ffff:0:7f00:1', internal: true, why: 'IPv4-translated (reserved ::/8)' },
      { address: '5f00::1', internal: true, why: 'SRv6 segment ids (outside 2000::/3)' },
      { address: '2001:4860:4860::8888', internal: false, why: 'public' },
      { address: '2606:4700:4700::1111', internal: false, why: 'public' },
      { address: '2001:200::1', internal: false, why: 'public, just past 2001::/23' },
      { address: '3ffe:1000::1', internal: false, why: 'public, just past 3fff::/20 below it' },
    ];
    for (const { address, internal, why } of rows) {
      it(`${address} (${why}) -> ${internal ? 'internal' : 'public'}`, () => {
        expect(isInternalHost(address), 'as an address').to.equal(internal);
        if (address.includes('%')) return; // a URL cannot carry a zone
        const problem = checkUrl(`http://[${address}]:8545/`, BLOCK);
        if (internal) expect(problem, 'as a URL').to.match(/an internal address; RPC_BLOCK_PRIVATE_IPS forbids it/);
        else expect(problem, 'as a URL').to.equal(null);
      });
    }
  });

  describe('checkUrl with RPC_ALLOWED_HOSTS', () => {
    const rows: Array<[string, boolean]> = [
      ['https://rpc.example.com/v1', true],
      ['https://RPC.Example.COM', true],
      ['http://rpc.example.com:8545', true],
      ['https://evil.example.net', false],
      ['https://sub.rpc.example.com', false],
      ['https://rpc.example.com.evil.net', false],
      ['https://rpc.example.com@evil.net', false],
      ['https://example.com', false],
    ];
    for (const [url, ok] of rows) {
      it(`${ok ? 'accepts' : 'refuses'} ${url}`, () => {
        const got = checkUrl(url, ALLOW);
        if (ok) expect(got).to.equal(null);
        else expect(got).to.match(/not in RPC_ALLOWED_HOSTS/);
      });
    }
  });

  describe('normaliseEntry', () => {
    it('gives a plain URL weight 100 and keeps an explicit weight (0 included)', () => {
      expect(normaliseEntry('https://a.example.com')).to.deep.equal({ url: 'https://a.example.com', weight: 100 });
      expect(normaliseEntry({ url: 'https://a.example.com', weight: 0 })).to.deep.equal({
        url: 'https://a.example.com',
        weight: 0,
      });
    });
  });

  describe('checkRpcUrls', () => {
    const rows: Array<{ name: string; entries: unknown[]; policy?: UrlPolicy; pointers: string[]; message?: RegExp }> =
      [
        {
          name: 'valid mixed entries',
          entries: ['https://a.example.com', { url: 'https://b.example.com', weight: 0 }],
          pointers: [],
        },
        {
          name: 'duplicate plain URLs',
          entries: ['https://a.example.com', 'https://a.example.com'],
          pointers: ['/rpc_urls/1'],
          message: /rpc_urls\[1\] repeats rpc_urls\[0\]/,
        },
        {
          name: 'duplicate after URL normalisation',
          entries: ['https://A.example.com', { url: 'https://a.example.com/', weight: 5 }],
          pointers: ['/rpc_urls/1/url'],
          message: /repeats rpc_urls\[0\]/,
        },
        {
          name: 'all weights 0',
          entries: [
            { url: 'https://a.example.com', weight: 0 },
            { url: 'https://b.example.com', weight: 0 },
          ],
          pointers: ['/rpc_urls'],
          message: /weight above 0/,
        },
        {
          name: 'a bad plain entry',
          entries: ['https://a.example.com', 'ftp://b.example.com'],
          pointers: ['/rpc_urls/1'],
          message: /rpc_urls\[1\] must use http/,
        },
        {
          name: 'a bad object entry',
          entries: [{ url: 'https://a b.example.com', weight: 1 }],
          pointers: ['/rpc_urls/0/url'],
          message: /whitespace/,
        },
        {
          name: 'a private host under the policy',
          entries: ['https://a.example.com', { url: 'http://10.0.0.1', weight: 1 }],
          policy: BLOCK,
          pointers: ['/rpc_urls/1/url'],
          message: /RPC_BLOCK_PRIVATE_IPS/,
        },
      ];
    for (const row of rows) {
      it(row.name, () => {
        const problems = checkRpcUrls(row.entries, '/rpc_urls', row.policy ?? OPEN_POLICY);
        expect(problems.map((p) => p.pointer)).to.deep.equal(row.pointers);
        if (row.message) expect(problems[0]?.message).to.match(row.message);
      });
    }
  });
});
