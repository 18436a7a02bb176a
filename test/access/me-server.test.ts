/**
 * GET /api/v1/access/me on the built server, as a table over callers: the keyless loopback caller
 * (an admin without a name, who is never shown secrets), API_KEY's holder, a read token scoped to
 * some networks, a write token; and a missing token, which is the guard's 401.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';

const sha = (token: string): string => createHash('sha256').update(token).digest('hex');
const READER = 'ncfg_me-reader-0123456789abcdef0123456789abcde';
const WRITER = 'ncfg_me-writer-0123456789abcdef0123456789abcde';
const API_KEY = 'k'.repeat(40);

const TABLE: Array<{ caller: string; server: 'open' | 'tokens'; token?: string; status: number; data?: unknown }> = [
  {
    caller: 'no token configured (open on loopback)',
    server: 'open',
    status: 200,
    data: { name: null, role: 'admin', networks: null, reveal_secrets: false },
  },
  {
    caller: "API_KEY's token",
    server: 'tokens',
    token: API_KEY,
    status: 200,
    data: { name: 'api-key', role: 'admin', networks: null, reveal_secrets: false },
  },
  {
    caller: 'a read token with networks',
    server: 'tokens',
    token: READER,
    status: 200,
    data: { name: 'relayer-eu', role: 'read', networks: ['evm:*', 'solana:devnet'], reveal_secrets: false },
  },
  {
    caller: 'a write token',
    server: 'tokens',
    token: WRITER,
    status: 200,
    data: { name: 'ops-alice', role: 'write', networks: null, reveal_secrets: true },
  },
  { caller: 'no token where tokens are configured', server: 'tokens', status: 401 },
];

describe('GET /api/v1/access/me on the built server (who the token is)', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  const servers: Partial<Record<'open' | 'tokens', ChildServer>> = {};

  before(async () => {
    root = makeConfigDir(standardFiles());
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-me-'));
    const file = path.join(dir, 'tokens.yaml');
    writeFileSync(
      file,
      `tokens:\n  - name: relayer-eu\n    sha256: "${sha(READER)}"\n    role: read\n` +
        `    networks: ["evm:*", "solana:devnet"]\n  - name: ops-alice\n    sha256: "${sha(WRITER)}"\n` +
        `    role: write\n    reveal_secrets: true\n`,
    );
    [servers.open, servers.tokens] = await Promise.all([
      startChild({ CONFIG_DIR: root }),
      startChild({ CONFIG_DIR: root, API_TOKENS_FILE: file, API_KEY }),
    ]);
  });
  after(async () => {
    await Promise.all([servers.open?.stop(), servers.tokens?.stop()]);
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  for (const row of TABLE) {
    it(`${row.caller} -> ${row.status}`, async () => {
      const res = await fetch(`${servers[row.server]?.url}/api/v1/access/me`, {
        headers: row.token ? { authorization: `Bearer ${row.token}` } : {},
      });
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status, JSON.stringify(body)).to.equal(row.status);
      if (row.status !== 200) return void expect(body).to.include({ success: false, code: 'UNAUTHORIZED' });
      expect(body).to.deep.equal({
        success: true,
        data: { ...(row.data ?? {}), proposals: { enabled: false, propose_only: false } },
        error: null,
      });
      expect(res.headers.get('cache-control')).to.equal('no-store');
    });
  }
});
