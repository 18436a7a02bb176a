/**
 * GET /api/v1/ready on the built server, as each caller sees it: with API_TOKENS_FILE set, no token
 * (or a wrong one) is told statuses and counts only; a read token adds the index's details; an
 * admin token (or API_KEY) everything; with no token configured at all, everyone is told everything.
 * The words looked for: an unset variable's name, a relayer's name, the tokens file's path.
 * The status code is the same for all.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';

const sha = (token: string): string => createHash('sha256').update(token).digest('hex');
const READER = 'ncfg_tier-reader-0123456789abcdef0123456789ab';
const ADMIN = 'ncfg_tier-admin-0123456789abcdef0123456789abc';
const API_KEY = 't'.repeat(40);
const VARIABLE = 'TIER_UNSET_PROVIDER_URL';
const RELAYER = 'relayer-tier-hidden';
const TOKENS = `tokens:\n  - name: reader\n    sha256: "${sha(READER)}"\n    role: read\n  - name: boss\n    sha256: "${sha(ADMIN)}"\n    role: admin\n`;

describe('readiness on the built server: what each caller is told', function () {
  this.timeout(40_000);
  let root: string;
  let dir: string;
  let tokensFile: string;
  let servers: ChildServer[] = [];

  const ready = async (server: ChildServer, token?: string): Promise<{ code: number; text: string }> => {
    const res = await fetch(`${server.url}/api/v1/ready`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { code: res.status, text: await res.text() };
  };
  /** Until `test` holds of readiness as API_KEY (or anyone, with no key) sees it, up to a deadline. */
  async function until(
    server: ChildServer,
    token: string | undefined,
    test: (text: string) => boolean,
    what: string,
  ): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!test((await ready(server, token)).text)) {
      if (Date.now() > deadline) throw new Error(`${what}: not within 10 s`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const start = async (env: Record<string, string>): Promise<ChildServer> => {
    const server = await startChild({
      CONFIG_DIR: root,
      RELAYER_SYNC_FILE: path.join(dir, 'relayers.yaml'),
      RELAYER_KEY: 'r'.repeat(40),
      RELAYER_SYNC_INTERVAL_MS: '200',
      ...env,
    });
    servers.push(server);
    // The relayer is known once its first pass failed; the variable once the file was read.
    await until(
      server,
      env.API_KEY ? API_KEY : undefined,
      (t) => t.includes(VARIABLE) && t.includes(RELAYER),
      'readiness holds the variable and the relayer',
    );
    return server;
  };

  beforeEach(() => {
    root = makeConfigDir({
      ...standardFiles(),
      'evm/holesky.yaml': `rpc_urls:\n  - type: env\n    value: ${VARIABLE}\nchain_id: 17000\n`,
    });
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-tiers-'));
    tokensFile = path.join(dir, 'tokens.yaml');
    writeFileSync(tokensFile, TOKENS);
    // A relayer on a port nothing listens on: its name is in readiness, failing.
    writeFileSync(
      path.join(dir, 'relayers.yaml'),
      `relayers:\n  - name: ${RELAYER}\n    url: http://127.0.0.1:9\n    api_key_env: RELAYER_KEY\n`,
    );
  });
  afterEach(async () => {
    for (const server of servers) await server.stop();
    servers = [];
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  it('with API_TOKENS_FILE and API_KEY: none and a wrong token hide every word, a read token too, an admin token and API_KEY see all', async () => {
    const server = await start({ API_TOKENS_FILE: tokensFile, API_KEY });
    writeFileSync(tokensFile, 'tokens:\n  - name: [broken\n'); // the tokens held stay, the file's problem names its path
    await until(server, API_KEY, (t) => t.includes(tokensFile), "readiness holds the tokens file's problem");
    const TABLE: Array<
      [string, string | undefined, { variable: boolean; relayer: boolean; path: boolean; invalidFile: boolean }]
    > = [
      ['no token', undefined, { variable: false, relayer: false, path: false, invalidFile: false }],
      [
        'a wrong token',
        'ncfg_nobody-knows-this-one',
        { variable: false, relayer: false, path: false, invalidFile: false },
      ],
      ['a read token', READER, { variable: false, relayer: false, path: false, invalidFile: true }],
      ['an admin token', ADMIN, { variable: true, relayer: true, path: true, invalidFile: true }],
      ['API_KEY', API_KEY, { variable: true, relayer: true, path: true, invalidFile: true }],
    ];
    for (const [who, token, told] of TABLE) {
      const { code, text } = await ready(server, token);
      expect(code, who).to.equal(200);
      expect(
        {
          variable: text.includes(VARIABLE),
          relayer: text.includes(RELAYER),
          path: text.includes(dir),
          invalidFile: text.includes('evm/holesky.yaml'),
        },
        `${who}: ${text}`,
      ).to.deep.equal(told);
      const body = JSON.parse(text) as { status: string; components: Record<string, { status: string }> };
      expect(Object.keys(body.components).sort(), who).to.deep.equal([
        'access',
        'index',
        'relayers',
        'storage',
        'watcher',
      ]);
      for (const component of Object.values(body.components))
        expect(component.status, who).to.be.oneOf(['healthy', 'degraded', 'unhealthy']);
    }
  });

  it('with no token configured (loopback, every route open): everyone is told everything, as before', async () => {
    const server = await start({});
    const { code, text } = await ready(server);
    expect(code).to.equal(200);
    expect(text).to.include(VARIABLE).and.include(RELAYER).and.include('evm/holesky.yaml');
  });
});
