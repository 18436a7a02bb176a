/**
 * Provider keys out of git, on the built server: a network file holds `{type: env, value: NAME}`,
 * the process has NAME in its real environment (a fake JSON-RPC endpoint on loopback whose path
 * holds the key), a tokens file names a reader, a writer and a revealer, and GIT_COMMIT commits
 * each PATCH in a real work tree. The key never reaches a file, a commit, a log line or an answer
 * but a revealing token's.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { startFakeRpc, type FakeRpc } from '../helpers/fake-rpc.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';
import { git, initRepo } from '../helpers/git-repo.js';
import { within } from '../helpers/deadline.js';

const KEY = 'Kx9aQ2'; // short and digit-light: redactUrl would show it, the secret mask must not
const TOKENS = {
  reader: 'ncfg_reader-0123456789abcdef0123456789abcdef',
  writer: 'ncfg_writer-0123456789abcdef0123456789abcdef',
  revealer: 'ncfg_reveal-0123456789abcdef0123456789abcdef',
};
const sha = (t: string): string => createHash('sha256').update(t).digest('hex');

describe('secret references in rpc_urls (built server, real environment, GIT_COMMIT)', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  let rpc: FakeRpc;
  let server: ChildServer;
  let secretUrl: string;
  const file = (): string => readFileSync(path.join(root, 'evm/sepolia.yaml'), 'utf8');

  beforeEach(async () => {
    rpc = await startFakeRpc({ eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } });
    secretUrl = `${rpc.url}/v2/${KEY}`;
    root = makeConfigDir({
      'evm/sepolia.yaml':
        '# sepolia\nrpc_urls:\n  - type: env\n    value: SEPOLIA_SECRET_URL\n' +
        '  - url: https://public.example.com\n    weight: 0\nchain_id: 11155111\nrequired_confirmations: 1\n' +
        'symbol: ETH\n',
    });
    initRepo(root);
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-secrets-'));
    const tokens = path.join(dir, 'tokens.yaml');
    writeFileSync(
      tokens,
      `tokens:\n  - name: reader\n    sha256: "${sha(TOKENS.reader)}"\n    role: read\n  - name: writer\n` +
        `    sha256: "${sha(TOKENS.writer)}"\n    role: write\n  - name: revealer\n` +
        `    sha256: "${sha(TOKENS.revealer)}"\n    role: write\n    reveal_secrets: true\n`,
    );
    server = await startChild({
      CONFIG_DIR: root,
      API_TOKENS_FILE: tokens,
      GIT_COMMIT: 'true',
      SECRET_REFS_ALLOWED: 'evm:*=SEPOLIA_*',
      SEPOLIA_SECRET_URL: secretUrl,
      RPC_PROBE_INTERVAL_MS: '1000',
    });
  });
  afterEach(async () => {
    await server.stop();
    await rpc.close();
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (
    token: string,
    route: string,
    init: RequestInit = {},
  ): Promise<{ status: number; text: string; body: ReturnType<typeof JSON.parse> }> => {
    const res = await fetch(`${server.url}${route}`, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(init.headers as Record<string, string> | undefined),
      },
    });
    const text = await res.text();
    return { status: res.status, text, body: text.startsWith('{') ? JSON.parse(text) : null };
  };
  const patch = (token: string, rpcUrls: unknown[]) =>
    call(token, '/api/v1/networks/evm:sepolia', { method: 'PATCH', body: JSON.stringify({ rpc_urls: rpcUrls }) });
  const MASKED = (): string => `${rpc.url}/v2/***`;

  it('serves the value masked with secret: true, and the value itself only to a token with reveal_secrets', async () => {
    const cases: Array<[string, string]> = [
      ['reader', MASKED()],
      ['writer', MASKED()],
      ['revealer', secretUrl],
    ];
    for (const [who, url] of cases) {
      const token = TOKENS[who as keyof typeof TOKENS];
      const one = await call(token, '/api/v1/networks/evm:sepolia');
      expect(one.body.data.rpc_urls[0], who).to.deep.equal({ url, weight: 100, secret: true });
      const list = await call(token, '/api/v1/networks?per_page=100');
      expect(list.body.data[0].rpc_urls[0], `${who}: the list`).to.deep.equal({ url, weight: 100, secret: true });
    }
  });

  it('the prober asks the value, and rpc-health, readiness, events, history, export and the log never hold it', async () => {
    await rpc.requestsReached(1, 10_000); // the live prober found the endpoint through the secret's value
    const health = await within(
      (async () => {
        for (;;) {
          const h = await call(TOKENS.reader, '/api/v1/networks/evm:sepolia/rpc-health');
          if (h.body.data[0].status !== 'pending') return h;
          await new Promise((r) => setTimeout(r, 20));
        }
      })(),
      10_000,
      'the probe answered',
    );
    expect(health.body.data[0]).to.include({ status: 'ok', url: MASKED() });
    expect((await patch(TOKENS.writer, [MASKED(), 'https://new.example.com'])).status).to.equal(200);
    const routes = [
      '/api/v1/ready',
      '/api/v1/networks/evm:sepolia/rpc-health',
      '/api/v1/networks/evm:sepolia/history',
      '/api/v1/export/relayer',
      '/api/v1/networks',
      '/api/v1/rpc-health',
    ];
    for (const route of routes) expect((await call(TOKENS.reader, route)).text, route).not.to.include(KEY);
    const sha1 = (await call(TOKENS.reader, '/api/v1/networks/evm:sepolia/history')).body.data[0].sha as string;
    expect((await call(TOKENS.reader, `/api/v1/networks/evm:sepolia/history/${sha1}`)).text).not.to.include(KEY);
    expect(JSON.stringify(server.logs)).not.to.include(KEY);
    expect(git(root, 'log', '-p', '--all')).not.to.include(KEY);
  });

  it('a PATCH keeps the reference for what was served, and refuses a key, a stray mask or an unset variable', async () => {
    const before = file();
    const refused: Array<[string, string, unknown[], number, RegExp]> = [
      [
        'the value as a plain string, no reveal',
        TOKENS.writer,
        [secretUrl],
        403,
        /the value of the secret SEPOLIA_SECRET_URL/,
      ],
      ['a mask that matches no secret', TOKENS.writer, ['https://other.example.com/v2/***'], 400, /holds \*\*\*/],
      [
        'marked secret, matching none',
        TOKENS.writer,
        [{ url: 'https://x.example.com', weight: 5, secret: true }],
        400,
        /marked secret/,
      ],
      [
        'a reference to an unset variable',
        TOKENS.revealer,
        [{ type: 'env', value: 'SEPOLIA_NOT_SET' }],
        400,
        /SEPOLIA_NOT_SET.*not set/,
      ],
      [
        "a reference to netcfg's own setting",
        TOKENS.revealer,
        [{ type: 'env', value: 'API_TOKENS_FILE' }],
        400,
        /API_TOKENS_FILE/,
      ],
    ];
    for (const [what, token, urls, status, message] of refused) {
      const res = await patch(token, urls);
      expect(res.status, what).to.equal(status);
      expect(res.body.error, what).to.match(message);
      expect(res.text, what).not.to.include(KEY);
      expect(file(), `${what}: nothing written`).to.equal(before);
    }
    const kept: Array<[string, string, unknown[]]> = [
      ['the mask sent back as a string', TOKENS.writer, [MASKED(), 'https://a.example.com']],
      [
        'the mask in {url, weight}, as the SDK sends it',
        TOKENS.writer,
        [{ url: MASKED(), weight: 40 }, 'https://b.example.com'],
      ],
      ['the value with secret: true, by a revealer', TOKENS.revealer, [{ url: secretUrl, weight: 60, secret: true }]],
      ['a new reference', TOKENS.writer, [{ url: { type: 'env', value: 'SEPOLIA_SECRET_URL' }, weight: 70 }]],
    ];
    for (const [what, token, urls] of kept) {
      const res = await patch(token, urls);
      expect(res.status, `${what}: ${res.text}`).to.equal(200);
      expect(file(), what).to.include('value: SEPOLIA_SECRET_URL').and.not.include('***').and.not.include(KEY);
    }
    expect(git(root, 'log', '-p', '--all'))
      .not.to.include(KEY)
      .and.not.include('/v2/***');
    const plain = await patch(TOKENS.revealer, [secretUrl]);
    expect(plain.status, 'a revealer may write the value out, on purpose').to.equal(200);
  });

  it('an unset variable makes the file invalid at its line and column; the last good version stays served', async () => {
    writeFileSync(
      path.join(root, 'evm/sepolia.yaml'),
      'rpc_urls:\n  - https://ok.example.com\n  - type: env\n    value: SEPOLIA_GONE\nchain_id: 11155111\n',
    );
    const ready = await within(
      (async () => {
        for (;;) {
          const r = await call(TOKENS.reader, '/api/v1/ready');
          if (r.body.components.index.invalid_files.length > 0) return r.body;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })(),
      10_000,
      'readiness shows the file',
    );
    // A read token is told where; the variable's name is for an admin (docs/access.md, readiness by tier).
    expect(ready.components.index.invalid_files[0]).to.include({ path: 'evm/sepolia.yaml', line: 3, column: 5 });
    expect(JSON.stringify(ready)).not.to.include('SEPOLIA_GONE');
    expect((await call(TOKENS.reader, '/api/v1/networks/evm:sepolia')).body.data.rpc_urls[0].secret).to.equal(true);
  });

  it('export keeps references when asked; resolve_secrets=true is for a revealing token only', async () => {
    const cases: Array<[string, string, string, number, unknown]> = [
      ['reader, references', TOKENS.reader, '?keep_references=true', 200, { type: 'env', value: 'SEPOLIA_SECRET_URL' }],
      ['reader, resolve', TOKENS.reader, '?resolve_secrets=true', 403, null],
      ['revealer, resolve', TOKENS.revealer, '?resolve_secrets=true', 200, secretUrl],
    ];
    for (const [what, token, query, status, first] of cases) {
      const res = await call(token, `/api/v1/export/relayer${query}`);
      expect(res.status, what).to.equal(status);
      if (status === 200) expect(res.body.networks[0].rpc_urls[0], what).to.deep.equal(first);
    }
  });
});
