/**
 * API_TOKENS_FILE on the built server (a child process on a real folder, the file on disk): each
 * role's routes as a table (200, 401, 403), API_KEY beside the file, rotation without a restart
 * (a token added works, one removed stops, each within a second), a broken file keeping the
 * tokens before it (readiness says where, never a name), expiry, and a file never good refusing
 * the start.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';

const sha = (token: string): string => createHash('sha256').update(token).digest('hex');
const TOKENS = {
  reader: 'ncfg_reader-token-0123456789abcdef0123456789',
  writer: 'ncfg_writer-token-0123456789abcdef0123456789',
  admin: 'ncfg_admin-token-0123456789abcdef01234567890',
  late: 'ncfg_late-token-0123456789abcdef01234567890123',
  old: 'ncfg_expired-token-0123456789abcdef0123456789',
};
const API_KEY = 'k'.repeat(40);

function fileOf(entries: Array<{ name: string; token: string; role: string; extra?: string }>): string {
  return `tokens:\n${entries.map((e) => `  - name: ${e.name}\n    sha256: "${sha(e.token)}"\n    role: ${e.role}\n${e.extra ?? ''}`).join('')}`;
}
const BASE = [
  { name: 'relayer-eu', token: TOKENS.reader, role: 'read' },
  { name: 'ops-alice', token: TOKENS.writer, role: 'write' },
  { name: 'admin-bob', token: TOKENS.admin, role: 'admin' },
  { name: 'gone-carol', token: TOKENS.old, role: 'admin', extra: '    expires: 2001-01-01\n' },
];

describe('API_TOKENS_FILE on the built server (roles, rotation, a broken file, expiry)', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  let file: string;
  let server: ChildServer | null = null;
  const call = (method: string, route: string, token?: string): Promise<Response> =>
    fetch(`${server?.url}${route}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: method === 'PATCH' ? JSON.stringify({ rpc_urls: ['https://t.example.com'] }) : undefined,
    });
  /** Asks until `route` answers `status` for `token` (each ask a request), up to a deadline. */
  async function untilStatus(route: string, token: string, status: number, deadlineMs: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      const res = await call('GET', route, token);
      await res.arrayBuffer();
      if (res.status === status) return Date.now() - started;
      if (Date.now() - started > deadlineMs)
        throw new Error(`${route} did not answer ${status} within ${deadlineMs} ms (last ${res.status})`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-tokens-'));
    file = path.join(dir, 'tokens.yaml');
    writeFileSync(file, fileOf(BASE));
    server = await startChild({ CONFIG_DIR: root, API_TOKENS_FILE: file, API_KEY });
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  const TABLE: Array<[string, string, string | undefined, number]> = [
    ['GET', '/api/v1/networks', undefined, 401],
    ['GET', '/api/v1/networks', TOKENS.old, 401],
    ['GET', '/api/v1/networks', 'ncfg_unknown-token', 401],
    ['GET', '/api/v1/networks', TOKENS.reader, 200],
    ['GET', '/api/v1/networks/evm:sepolia', TOKENS.reader, 200],
    ['GET', '/api/v1/export/relayer', TOKENS.reader, 200],
    ['PATCH', '/api/v1/networks/evm:sepolia', TOKENS.reader, 403],
    ['PATCH', '/api/v1/networks/evm:sepolia', TOKENS.writer, 200],
    ['PATCH', '/api/v1/networks/evm:sepolia', TOKENS.admin, 200],
    ['PATCH', '/api/v1/networks/evm:sepolia', API_KEY, 200],
    ['GET', '/api/v1/ready', undefined, 200],
    ['GET', '/api/v1/openapi.json', undefined, 200],
  ];
  it('each role reaches its routes: read GETs, write PATCHes too; unknown, expired or missing is 401, a role too low 403 saying which', async () => {
    for (const [method, route, token, status] of TABLE) {
      const res = await call(method, route, token);
      const body = await res.text();
      expect(res.status, `${method} ${route} with ${token?.slice(0, 12) ?? 'no token'}: ${body}`).to.equal(status);
      if (status === 403)
        expect(JSON.parse(body)).to.include({
          code: 'FORBIDDEN',
          error: "This needs a token with the write role; relayer-eu's role is read.",
        });
    }
  });

  it(
    'rotation without a restart: a token added works within a second, one removed stops within a second; ' +
      'a broken file keeps the tokens before it',
    async () => {
      expect((await call('GET', '/api/v1/networks', TOKENS.late)).status).to.equal(401);
      writeFileSync(file, fileOf([...BASE, { name: 'new-dave', token: TOKENS.late, role: 'read' }]));
      expect(await untilStatus('/api/v1/networks', TOKENS.late, 200, 1000)).to.be.lessThan(1000);
      writeFileSync(
        file,
        fileOf(
          BASE.filter((e) => e.name !== 'relayer-eu').concat({ name: 'new-dave', token: TOKENS.late, role: 'read' }),
        ),
      );
      expect(await untilStatus('/api/v1/networks', TOKENS.reader, 401, 1000)).to.be.lessThan(1000);
      writeFileSync(file, 'tokens:\n  - name: [broken\n');
      const deadline = Date.now() + 2000;
      let access: { status: string; problem: string | null } | undefined;
      while (Date.now() < deadline && access?.problem == null) {
        access = (
          (await (await call('GET', '/api/v1/ready', TOKENS.admin)).json()) as {
            components: { access?: typeof access };
          }
        ).components.access;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(access?.status).to.equal('degraded');
      expect(access?.problem).to.match(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
      expect(JSON.stringify(access)).to.not.include('new-dave').and.not.include('ops-alice');
      expect(
        (await call('GET', '/api/v1/networks', TOKENS.late)).status,
        'the tokens before the broken change hold',
      ).to.equal(200);
    },
  );

  it('a file that was never good refuses the start, with its line and column', async () => {
    writeFileSync(file, 'tokens:\n  - name: x\n    sha256: nope\n    role: read\n');
    const refused = await startChild({ CONFIG_DIR: root, API_TOKENS_FILE: file }).then(
      () => 'started',
      (err: Error) => err.message,
    );
    expect(refused).to.include(`${file}:3:13: sha256 must be the 64 lower-case hex digits`);
  });
});
