/**
 * Who may read GET /metrics, on the built server, as a table over callers: anyone while no token is
 * configured (loopback only); with API_TOKENS_FILE, a token of the read role or above whose scope
 * is every network, a scoped one being a 403 that says why, and no token or a wrong one the
 * guard's 401. A network's URL is a secret reference whose value is in the server's environment
 * (the live prober asks it), and a revealing token reads the metrics too: no answer ever holds
 * the secret's value, a token, or a token's name.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { within } from '../helpers/deadline.js';
import { samplesOf } from '../helpers/exposition.js';
import { startFakeRpc, type FakeRpc } from '../helpers/fake-rpc.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';

const sha = (token: string): string => createHash('sha256').update(token).digest('hex');
const SECRET_KEY = 'Kx9aQ2'; // short and digit-light: redactUrl alone would show it, the secret mask must not
const TOKENS = {
  reader: {
    token: 'ncfg_metrics-reader-0123456789abcdef0123456789ab',
    name: 'grafana-scraper-x1',
    entry: 'role: read',
  },
  scoped: {
    token: 'ncfg_metrics-scoped-0123456789abcdef0123456789ab',
    name: 'relayer-eu-x2',
    entry: 'role: read\n    networks: ["evm:*"]',
  },
  revealer: {
    token: 'ncfg_metrics-reveal-0123456789abcdef0123456789ab',
    name: 'ops-alice-x3',
    entry: 'role: write\n    reveal_secrets: true',
  },
  scopedAdmin: {
    token: 'ncfg_metrics-sadmin-0123456789abcdef0123456789ab',
    name: 'ops-bob-x4',
    entry: 'role: admin\n    networks: ["evm:sepolia"]',
  },
};

interface Case {
  caller: string;
  server: 'open' | 'tokens';
  token?: string;
  status: number;
  /** What the error's sentence must say, for a refusal. */
  says?: RegExp;
}

const CASES: Case[] = [
  { caller: 'anyone, no token configured (loopback only)', server: 'open', status: 200 },
  { caller: 'a read token for every network', server: 'tokens', token: TOKENS.reader.token, status: 200 },
  { caller: 'a write token that may reveal secrets', server: 'tokens', token: TOKENS.revealer.token, status: 200 },
  {
    caller: 'a read token scoped to evm:*',
    server: 'tokens',
    token: TOKENS.scoped.token,
    status: 403,
    says: /name every network.*scope is every network/,
  },
  {
    caller: 'an admin token scoped to one network',
    server: 'tokens',
    token: TOKENS.scopedAdmin.token,
    status: 403,
    says: /every network/,
  },
  { caller: 'no token', server: 'tokens', status: 401, says: /Bearer/ },
  { caller: 'a wrong token', server: 'tokens', token: 'ncfg_nobody-0123456789abcdef0123456789abcdef', status: 401 },
];

describe('GET /metrics: who may read it, and what it never holds (built server)', function () {
  this.timeout(40_000);
  let root: string;
  let dir: string;
  let rpc: FakeRpc;
  const servers: Partial<Record<'open' | 'tokens', ChildServer>> = {};

  before(async () => {
    rpc = await startFakeRpc({ eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } });
    root = makeConfigDir({
      'evm/sepolia.yaml': 'rpc_urls:\n  - type: env\n    value: SEPOLIA_SECRET_URL\nchain_id: 11155111\n',
      'evm/holesky.yaml': networkYaml({ rpc_urls: [rpc.url] }),
    });
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-metrics-access-'));
    const file = path.join(dir, 'tokens.yaml');
    writeFileSync(
      file,
      `tokens:\n${Object.values(TOKENS)
        .map((t) => `  - name: ${t.name}\n    sha256: "${sha(t.token)}"\n    ${t.entry}\n`)
        .join('')}`,
    );
    const env = {
      CONFIG_DIR: root,
      RPC_PROBE_INTERVAL_MS: '1000',
      SECRET_REFS_ALLOWED: 'evm:sepolia=SEPOLIA_*',
      SEPOLIA_SECRET_URL: `${rpc.url}v2/${SECRET_KEY}`,
    };
    servers.open = await startChild(env);
    servers.tokens = await startChild({ ...env, API_TOKENS_FILE: file });
    // Both probed the secret's value (its endpoint answered), so its URL is in the metrics.
    for (const server of Object.values(servers)) {
      await within(
        (async () => {
          while (
            !samplesOf(
              await (
                await fetch(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${TOKENS.reader.token}` } })
              ).text(),
              'netcfg_rpc_url_status',
            ).some((s) => s.labels.url?.includes('/v2/'))
          )
            await new Promise((r) => setTimeout(r, 100));
        })(),
        15_000,
        'the secret URL probed',
      );
    }
  });
  after(async () => {
    await Promise.all(Object.values(servers).map((s) => s?.stop()));
    await rpc.close();
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  for (const { caller, server, token, status, says } of CASES) {
    it(`${caller}: ${status}`, async () => {
      const res = await fetch(`${servers[server]!.url}/metrics`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).to.equal(status);
      if (status === 200) {
        expect(res.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
        const urls = samplesOf(text, 'netcfg_rpc_url_status').map((s) => s.labels.url);
        expect(urls, 'the secret URL, masked').to.include(`${rpc.url}v2/***`);
      } else {
        expect(JSON.parse(text)).to.include({ success: false, code: status === 403 ? 'FORBIDDEN' : 'UNAUTHORIZED' });
        if (says) expect(JSON.parse(text).error).to.match(says);
      }
      expect(text, "the secret's value").to.not.include(SECRET_KEY);
      for (const t of Object.values(TOKENS))
        expect(text, 'a token or its name').to.not.include(t.token).and.not.include(t.name);
    });
  }
});
