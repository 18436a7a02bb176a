/**
 * Every change signed by its actor, on the built server (GIT_COMMIT in a real git work tree, a
 * tokens file on disk): a PATCH by a named token is a commit authored by that name, committed by
 * the configured author, with the Netcfg-Actor trailer; history names the actor; the access log
 * line names it; API_KEY's holder still writes as the configured operator.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { git, initRepo } from '../helpers/git-repo.js';

const ALICE = 'ncfg_ops-alice-0123456789abcdef0123456789abcde';
const API_KEY = 'k'.repeat(40);

describe('every change signed by its actor (built server, GIT_COMMIT, a tokens file)', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  let server: ChildServer;

  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    initRepo(root);
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-signed-'));
    const file = path.join(dir, 'tokens.yaml');
    writeFileSync(
      file,
      `tokens:\n  - name: ops-alice\n    sha256: "${createHash('sha256').update(ALICE).digest('hex')}"\n    role: write\n`,
    );
    server = await startChild({
      CONFIG_DIR: root,
      API_TOKENS_FILE: file,
      API_KEY,
      GIT_COMMIT: 'true',
      GIT_AUTHOR_NAME: 'Ops Bot',
      GIT_AUTHOR_EMAIL: 'ops@example.com',
    });
  });
  afterEach(async () => {
    await server.stop();
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  const patch = (token: string, url: string): Promise<Response> =>
    fetch(`${server.url}/api/v1/networks/evm:sepolia`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rpc_urls: [url] }),
    });

  it("a PATCH by ops-alice is her commit (trailer, author), netcfg's as committer; history and the access log name her", async () => {
    expect((await patch(ALICE, 'https://alice.example.com')).status).to.equal(200);
    // With GIT_COMMIT the commit is made before the 200.
    expect(git(root, 'log', '-1', '--format=%an <%ae>|%cn <%ce>').trim()).to.equal(
      'ops-alice <ops-alice@netcfg>|Ops Bot <ops@example.com>',
    );
    expect(git(root, 'log', '-1', '--format=%(trailers:key=Netcfg-Actor,valueonly)').trim()).to.equal(
      'token:ops-alice',
    );
    const history = (await (
      await fetch(`${server.url}/api/v1/networks/evm:sepolia/history`, {
        headers: { authorization: `Bearer ${ALICE}` },
      })
    ).json()) as { data: Array<{ author: string; actor: string | null }> };
    expect(history.data[0]).to.include({ author: 'ops-alice', actor: 'token:ops-alice' });
    expect(history.data.at(-1)?.actor, 'a commit made outside netcfg has no actor').to.equal(null);
    const line = server.logs.find((l) => l.msg === 'request' && l.method === 'PATCH');
    expect(line).to.include({ actor: 'token:ops-alice', status: 200 });
  });

  it("API_KEY's holder names no one: the configured operator is the author, the trailer says api-key", async () => {
    expect((await patch(API_KEY, 'https://key.example.com')).status).to.equal(200);
    // With GIT_COMMIT the commit is made before the 200.
    expect(git(root, 'log', '-1', '--format=%an <%ae>|%(trailers:key=Netcfg-Actor,valueonly)').trim()).to.equal(
      'Ops Bot <ops@example.com>|token:api-key',
    );
  });
});
