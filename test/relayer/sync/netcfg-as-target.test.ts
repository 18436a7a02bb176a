/**
 * The relayer sync end to end, on built processes: netcfg A keeps netcfg B in sync (B serves the
 * relayer's network routes to the letter, behind its own key). A PATCH on A reaches B's file; A
 * shows B in GET /api/v1/relayers, in readiness and on its change stream; a bad targets file
 * refuses A's start with its line and column; no key is in any log line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../../helpers/child-server.js';
import { makeConfigDir, networkYaml, removeDir } from '../../helpers/fixtures.js';

const KEY_A = 'a'.repeat(40);
const KEY_B = 'b'.repeat(40);
const FILES = {
  'evm/sepolia.yaml': networkYaml({ rpc_urls: ['https://sepolia-a.example.com'] }),
  'solana/devnet.yaml': 'rpc_urls: [https://sol-a.example.com]\n',
};

/** Reads `url` until `accept` says yes, up to a deadline (each read is a request: no sleep between them but the answer's own time). */
async function untilAnswer(
  url: string,
  key: string,
  accept: (body: Record<string, unknown>) => boolean,
  deadlineMs: number,
  what: string,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const body = (await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).json()) as Record<
      string,
      unknown
    >;
    if (accept(body)) return body;
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${deadlineMs} ms; last ${JSON.stringify(body).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('relayer sync: netcfg keeping another netcfg in sync (built processes)', () => {
  let dirA: string;
  let dirB: string;
  let a: ChildServer | null = null;
  let b: ChildServer | null = null;
  beforeEach(() => {
    dirA = makeConfigDir(FILES);
    dirB = makeConfigDir(FILES);
  });
  afterEach(async () => {
    await a?.stop();
    await b?.stop();
    a = b = null;
    removeDir(dirA);
    removeDir(dirB);
  });

  it('a PATCH on A reaches B; A shows B in sync in its route and readiness; no key in a log line', async () => {
    b = await startChild({ CONFIG_DIR: dirB, API_KEY: KEY_B });
    const targets = path.join(dirA, '..', `targets-${path.basename(dirA)}.yaml`);
    writeFileSync(
      targets,
      `relayers:\n  - name: netcfg-b\n    url: ${b.url}\n    api_key_env: B_KEY\n    networks: ["evm:*"]\n`,
    );
    a = await startChild({
      CONFIG_DIR: dirA,
      API_KEY: KEY_A,
      RELAYER_SYNC_FILE: targets,
      RELAYER_SYNC_INTERVAL_MS: '500',
      B_KEY: KEY_B,
    });
    await untilAnswer(
      `${a.url}/api/v1/relayers`,
      KEY_A,
      (body) => (body.data as Array<{ state: string }>)[0]?.state === 'in_sync',
      10_000,
      'B in sync',
    );
    const patched = await fetch(`${a.url}/api/v1/networks/evm:sepolia`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rpc_urls: ['https://sepolia-z.example.com'] }),
    });
    expect(patched.status).to.equal(200);
    await untilAnswer(
      `${b.url}/api/v1/networks/evm:sepolia`,
      KEY_B,
      (body) => JSON.stringify(body).includes('sepolia-z'),
      10_000,
      'the PATCH on B',
    );
    expect(readFileSync(path.join(dirB, 'evm/sepolia.yaml'), 'utf8')).to.include('https://sepolia-z.example.com');
    const status = await untilAnswer(
      `${a.url}/api/v1/relayers`,
      KEY_A,
      (body) => (body.data as Array<{ patches_sent: number; state: string }>)[0]?.state === 'in_sync',
      10_000,
      'in sync after',
    );
    expect((status.data as Array<{ counts: unknown; url: string }>)[0]).to.deep.include({
      counts: { in_sync: 1, drifted: 0, stale: 0, missing: 0, failing: 0, extra: 0 },
      url: `${b.url}/`,
    });
    const ready = (await (await fetch(`${a.url}/api/v1/ready`)).json()) as {
      components: { relayers?: { status: string } };
    };
    expect(ready.components.relayers?.status).to.equal('healthy');
    const said = JSON.stringify(a.logs) + JSON.stringify(b.logs);
    expect(said).to.not.include(KEY_B).and.not.include(KEY_A);
    expect(readFileSync(path.join(dirB, 'solana/devnet.yaml'), 'utf8'), 'out of scope: never sent').to.equal(
      FILES['solana/devnet.yaml'],
    );
  });

  it('a targets file it cannot use refuses the start, with line and column; a key variable not set too', async () => {
    const targets = path.join(dirA, '..', `targets-bad-${path.basename(dirA)}.yaml`);
    writeFileSync(targets, 'relayers:\n  - name: eu\n    url: ftp://x\n    api_key_env: K\n');
    const refused = await startChild({ CONFIG_DIR: dirA, RELAYER_SYNC_FILE: targets, K: 'k'.repeat(32) }).then(
      () => 'started',
      (err: Error) => err.message,
    );
    expect(refused).to.include(`${targets}:3:10: url must be the relayer API root`);
    writeFileSync(targets, 'relayers:\n  - name: eu\n    url: http://127.0.0.1:9\n    api_key_env: NOT_SET_HERE\n');
    const noKey = await startChild({ CONFIG_DIR: dirA, RELAYER_SYNC_FILE: targets }).then(
      () => 'started',
      (err: Error) => err.message,
    );
    expect(noKey).to.include('NOT_SET_HERE, the key of relayer eu in RELAYER_SYNC_FILE, is not set');
  });
});
