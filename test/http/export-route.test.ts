/**
 * GET /api/v1/export/relayer on the built server, with the parameters of `netcfg export relayer`'s
 * flags: a network holding secret references is left out unless `keep_references=true` or (a
 * revealing token) `resolve_secrets=true`; what is left out is named in headers while the body stays
 * the relayer's file; `strict=true` makes any of it a 422 envelope instead of a document.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { idsHeader } from '../../src/http/routes/export.js';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';

const TOKENS = {
  reader: 'ncfg_reader-0123456789abcdef0123456789abcdef',
  evm: 'ncfg_evmonly-0123456789abcdef0123456789abcdef',
  revealer: 'ncfg_reveal-0123456789abcdef0123456789abcdef',
};
const sha = (t: string): string => createHash('sha256').update(t).digest('hex');
const SECRET = 'https://eth.example.com/v2/k3y';
const REF = { type: 'env', value: 'KEYED_URL' };
const BOTH = ['keyed', 'plain'];

interface Case {
  what: string;
  token: keyof typeof TOKENS;
  query: string;
  status: number;
  /** The networks of the document and keyed's first rpc_url, or the error code. */
  networks?: string[];
  keyed?: unknown;
  leftOut?: string;
  code?: string;
  details?: string[];
}

const CASES: Case[] = [
  {
    what: 'default: the reference left out and named',
    token: 'reader',
    query: '',
    status: 200,
    networks: ['plain'],
    leftOut: 'cosmos:hub, evm:keyed',
  },
  {
    what: 'keep_references=true',
    token: 'reader',
    query: '?keep_references=true',
    status: 200,
    networks: BOTH,
    keyed: REF,
    leftOut: 'cosmos:hub',
  },
  {
    what: 'resolve_secrets=true, a revealer',
    token: 'revealer',
    query: '?resolve_secrets=true',
    status: 200,
    networks: BOTH,
    keyed: SECRET,
    leftOut: 'cosmos:hub',
  },
  {
    what: 'resolve_secrets=true, a reader',
    token: 'reader',
    query: '?resolve_secrets=true',
    status: 403,
    code: 'FORBIDDEN',
  },
  {
    what: 'strict=true with something left out',
    token: 'reader',
    query: '?strict=true',
    status: 422,
    code: 'EXPORT_INCOMPLETE',
    details: [
      'cosmos:hub: left out; the relayer has no cosmos networks',
      'evm:keyed: left out; its rpc_urls hold secret references to KEYED_URL (resolve_secrets=true writes their values',
    ],
  },
  {
    what: 'strict=true, keep_references=true, nothing left out (evm only)',
    token: 'evm',
    query: '?strict=true&keep_references=true',
    status: 200,
    networks: BOTH,
    keyed: REF,
    leftOut: '',
  },
  {
    what: 'both ways at once',
    token: 'revealer',
    query: '?resolve_secrets=true&keep_references=true',
    status: 400,
    code: 'INVALID_QUERY',
  },
  {
    what: 'a flag that is not true or false',
    token: 'reader',
    query: '?strict=yes',
    status: 400,
    code: 'INVALID_QUERY',
  },
];

describe('http: GET /api/v1/export/relayer leaves out what would break a relayer (built server)', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  let server: ChildServer;

  before(async () => {
    root = makeConfigDir({
      'evm/plain.yaml': 'rpc_urls: [https://plain.example.com]\nchain_id: 5\nrequired_confirmations: 1\nsymbol: ETH\n',
      'evm/keyed.yaml':
        'rpc_urls:\n  - type: env\n    value: KEYED_URL\nchain_id: 1\nrequired_confirmations: 1\nsymbol: ETH\n',
      'cosmos/hub.yaml': networkYaml(),
    });
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-export-route-'));
    const tokens = path.join(dir, 'tokens.yaml');
    writeFileSync(
      tokens,
      `tokens:\n  - name: reader\n    sha256: "${sha(TOKENS.reader)}"\n    role: read\n` +
        `  - name: evm\n    sha256: "${sha(TOKENS.evm)}"\n    role: read\n    networks: ["evm:*"]\n` +
        `  - name: revealer\n    sha256: "${sha(TOKENS.revealer)}"\n    role: read\n    reveal_secrets: true\n`,
    );
    server = await startChild({
      CONFIG_DIR: root,
      API_TOKENS_FILE: tokens,
      KEYED_URL: SECRET,
      SECRET_REFS_ALLOWED: 'evm:*=KEYED_*',
    });
  });
  after(async () => {
    await server.stop();
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  for (const c of CASES) {
    it(`${c.what} -> ${c.status}${c.code ? ` ${c.code}` : ''}`, async () => {
      const res = await fetch(`${server.url}/api/v1/export/relayer${c.query}`, {
        headers: { authorization: `Bearer ${TOKENS[c.token]}` },
      });
      const text = await res.text();
      expect(res.status, text).to.equal(c.status);
      const body = JSON.parse(text) as Record<string, unknown>;
      if (c.code !== undefined) {
        expect(body).to.include({ success: false, data: null, code: c.code });
        const messages = ((body.details ?? []) as Array<{ message: string }>).map((d) => d.message);
        for (const [i, start] of (c.details ?? []).entries())
          expect(messages[i]?.startsWith(start), `${messages[i]} starts with ${start}`).to.equal(true);
        return;
      }
      expect(Object.keys(body), 'the relayer file, nothing else').to.deep.equal(['networks']);
      const networks = body.networks as Array<{ network: string; rpc_urls: unknown[] }>;
      expect(networks.map((n) => n.network)).to.deep.equal(c.networks);
      expect(networks.find((n) => n.network === 'keyed')?.rpc_urls[0]).to.deep.equal(c.keyed);
      expect(res.headers.get('netcfg-left-out-ids') ?? '').to.equal(c.leftOut);
      if (c.keyed !== SECRET) expect(text).to.not.include('k3y');
    });
  }

  it('Netcfg-Left-Out-Ids stays under 4 KiB and counts the rest', () => {
    const ids = Array.from({ length: 500 }, (_, i) => `evm:network-${String(i).padStart(3, '0')}`);
    const cases: Array<[string[], string | RegExp]> = [
      [[], ''],
      [['evm:a', 'cosmos:hub'], 'evm:a, cosmos:hub'],
      [ids, /^evm:network-000, .*, and \d+ more \(strict=true lists them all\)$/],
    ];
    for (const [list, expected] of cases) {
      const header = idsHeader(list);
      if (typeof expected === 'string') expect(header).to.equal(expected);
      else expect(header).to.match(expected).and.have.length.below(4200);
    }
  });
});
