/**
 * A write signs only its own change, on the built server: under GIT_COMMIT (a real work tree) and
 * GIT_SYNC (a git daemon on loopback), an edit of the file made on disk and never committed (tracked
 * or staged, or a file git does not track yet) gets a commit of its own first, as the working tree's
 * (`netcfg working-tree`, `Netcfg-Actor: system:working-tree`), and the writer's commit holds its change
 * alone. A file git already holds as it is gets exactly one commit.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../../helpers/child-server.js';
import { makeConfigDir, removeDir } from '../../helpers/fixtures.js';
import { bareOf, cloneOf, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { git, initRepo } from '../../helpers/git-repo.js';

const ALICE = 'ncfg_ops-alice-0123456789abcdef0123456789abcde';
const OPERATOR = { GIT_AUTHOR_NAME: 'Ops Bot', GIT_AUTHOR_EMAIL: 'ops@example.com' };
const fileOf = (first: string, backupWeight: number): string =>
  `# sepolia, by hand\nrpc_urls:\n  - url: ${first}\n    weight: 100\n  - url: https://backup.example.com\n    weight: ${backupWeight}\n` +
  'chain_id: 11155111\nis_testnet: true\n';
/** The PATCH's body: the first URL changed, the backup as the hand edit left it. */
const body = (backupWeight: number): string =>
  JSON.stringify({
    rpc_urls: [
      { url: 'https://alice.example.com', weight: 100 },
      { url: 'https://backup.example.com', weight: backupWeight },
    ],
  });
const WORKING_TREE = 'netcfg working-tree <ops@example.com>|system:working-tree';
const ALICE_SIGNS = 'ops-alice <ops-alice@netcfg>|token:ops-alice';

/** The lines a commit adds and removes in its files. */
function changedLines(repo: string, rev: string): string[] {
  return git(repo, 'show', '--format=', rev)
    .split('\n')
    .filter((l) => /^[+-]/.test(l) && !/^(\+\+\+|---) /.test(l));
}

/** Author and actor of the newest `count` commits, newest first. */
function signers(repo: string, count: number, ref = 'HEAD'): string[] {
  const log = git(
    repo,
    'log',
    `-${count}`,
    '--format=%an <%ae>|%(trailers:key=Netcfg-Actor,valueonly,separator=%x2C)',
    ref,
  );
  return log.trim().split('\n');
}

describe('store/git: a write signs only its own change (built server, GIT_COMMIT and GIT_SYNC)', function () {
  this.timeout(30_000);
  let dir: string;
  let root: string | undefined;
  let remote: GitRemote | undefined;
  let server: ChildServer | undefined;
  const tokensFile = (): string => {
    const file = path.join(dir, 'tokens.yaml');
    writeFileSync(
      file,
      `tokens:\n  - name: ops-alice\n    sha256: "${createHash('sha256').update(ALICE).digest('hex')}"\n    role: write\n`,
    );
    return file;
  };
  const headers = { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' };
  const patch = (id: string, backupWeight: number): Promise<Response> =>
    fetch(`${server?.url}/api/v1/networks/${id}`, { method: 'PATCH', headers, body: body(backupWeight) });
  const history = async (id: string): Promise<Array<{ author: string; actor: string | null }>> => {
    const res = await fetch(`${server?.url}/api/v1/networks/${id}/history`, { headers });
    return ((await res.json()) as { data: Array<{ author: string; actor: string | null }> }).data;
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-found-'));
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await remote?.stop();
    if (remote) removeDir(remote.dir);
    remote = undefined;
    if (root) removeDir(root);
    root = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  // How the file stands before the PATCH: rel, the hand edit made before it, and whether git tracks it.
  const cases: Array<{ name: string; rel: string; edit: (root: string) => void; handLines: string[] | 'whole file' }> =
    [
      {
        name: "an uncommitted edit of another entry's weight",
        rel: 'evm/sepolia.yaml',
        edit: (r) => writeFileSync(path.join(r, 'evm/sepolia.yaml'), fileOf('https://rpc.example.com', 35)),
        handLines: ['-    weight: 30', '+    weight: 35'],
      },
      {
        name: 'the same edit, staged with git add',
        rel: 'evm/sepolia.yaml',
        edit: (r) => {
          writeFileSync(path.join(r, 'evm/sepolia.yaml'), fileOf('https://rpc.example.com', 35));
          git(r, 'add', 'evm/sepolia.yaml');
        },
        handLines: ['-    weight: 30', '+    weight: 35'],
      },
      {
        name: 'a new file git does not track yet, written by hand',
        rel: 'evm/fresh.yaml',
        edit: (r) => writeFileSync(path.join(r, 'evm/fresh.yaml'), fileOf('https://rpc.example.com', 35)),
        handLines: 'whole file',
      },
    ];

  for (const c of cases) {
    it(`GIT_COMMIT, ${c.name}, then a PATCH by ops-alice: the working tree's commit holds the hand edit, hers her change alone`, async () => {
      root = makeConfigDir({ 'evm/sepolia.yaml': fileOf('https://rpc.example.com', 30) });
      initRepo(root);
      server = await startChild({ CONFIG_DIR: root, API_TOKENS_FILE: tokensFile(), GIT_COMMIT: 'true', ...OPERATOR });
      c.edit(root);
      const id = `evm:${path.basename(c.rel, '.yaml')}`;
      await server.untilLog(
        (l) => l.msg === 'index change' && (l.change as { id?: string }).id === id,
        10_000,
        'the hand edit served',
      );
      const res = await patch(id, 35);
      expect(res.status, await res.text()).to.equal(200);
      expect(git(root, 'rev-list', '--count', 'HEAD').trim(), 'the seed, the hand edit, the PATCH').to.equal('3');
      expect(signers(root, 2)).to.deep.equal([ALICE_SIGNS, WORKING_TREE]);
      const hand = changedLines(root, 'HEAD~1');
      if (c.handLines === 'whole file')
        expect(hand.join('\n')).to.equal(`+${fileOf('https://rpc.example.com', 35).trimEnd().split('\n').join('\n+')}`);
      else expect(hand).to.deep.equal(c.handLines);
      expect(changedLines(root, 'HEAD')).to.deep.equal([
        '-  - url: https://rpc.example.com',
        '+  - url: https://alice.example.com',
      ]);
      const subject = `netcfg: commit ${c.rel} as found on disk, edited outside netcfg, before a write by token:ops-alice`;
      expect(git(root, 'log', '-1', '--format=%s', 'HEAD~1').trim()).to.equal(subject);
      expect(git(root, 'status', '--porcelain').trim()).to.equal('');
      const commits = await history(id);
      expect(commits.slice(0, 2).map((h) => `${h.author}|${h.actor}`)).to.deep.equal([
        'ops-alice|token:ops-alice',
        'netcfg working-tree|system:working-tree',
      ]);
    });
  }

  it('GIT_COMMIT, a file git holds as it is: one commit, no empty one of the working tree', async () => {
    root = makeConfigDir({ 'evm/sepolia.yaml': fileOf('https://rpc.example.com', 30) });
    initRepo(root);
    server = await startChild({ CONFIG_DIR: root, API_TOKENS_FILE: tokensFile(), GIT_COMMIT: 'true', ...OPERATOR });
    const res = await patch('evm:sepolia', 30);
    expect(res.status, await res.text()).to.equal(200);
    expect(git(root, 'rev-list', '--count', 'HEAD').trim()).to.equal('2');
    expect(signers(root, 1)).to.deep.equal([ALICE_SIGNS]);
  });

  it('GIT_SYNC, an uncommitted edit in the clone, then a PATCH: both commits reach the remote, in one push, each with its own change', async () => {
    remote = await startGitRemote({ 'evm/sepolia.yaml': fileOf('https://rpc.example.com', 30) });
    const clone = cloneOf(remote, 'replica');
    const folder = path.join(clone, 'config', 'networks');
    const bare = bareOf(remote);
    const pushes = path.join(dir, 'pushes.log');
    writeFileSync(path.join(bare, 'hooks', 'post-receive'), `#!/bin/sh\ncat >/dev/null\necho push >> '${pushes}'\n`, {
      mode: 0o755,
    });
    server = await startChild({
      CONFIG_DIR: folder,
      API_TOKENS_FILE: tokensFile(),
      GIT_SYNC: 'true',
      GIT_SYNC_INTERVAL_MS: '3600000',
      ...OPERATOR,
    });
    writeFileSync(path.join(folder, 'evm/sepolia.yaml'), fileOf('https://rpc.example.com', 35));
    await server.untilLog(
      (l) => l.msg === 'index change' && (l.change as { id?: string }).id === 'evm:sepolia',
      10_000,
      'the hand edit served',
    );
    const res = await patch('evm:sepolia', 35);
    expect(res.status, await res.text()).to.equal(200);
    expect(git(bare, 'rev-list', '--count', 'main').trim(), 'the seed, the hand edit, the PATCH').to.equal('3');
    expect(signers(bare, 2, 'main')).to.deep.equal([ALICE_SIGNS, WORKING_TREE]);
    expect(changedLines(bare, 'main~1')).to.deep.equal(['-    weight: 30', '+    weight: 35']);
    expect(changedLines(bare, 'main')).to.deep.equal([
      '-  - url: https://rpc.example.com',
      '+  - url: https://alice.example.com',
    ]);
    expect(readFileSync(path.join(folder, 'evm/sepolia.yaml'), 'utf8')).to.equal(
      git(bare, 'show', 'main:config/networks/evm/sepolia.yaml'),
    );
    expect(git(clone, 'status', '--porcelain').trim()).to.equal('');
    expect(readFileSync(pushes, 'utf8'), 'one push carried both').to.equal('push\n');
    // A second PATCH right after, on a file the clone holds as it is: one commit more.
    const again = await patch('evm:sepolia', 40);
    expect(again.status, await again.text()).to.equal(200);
    expect(git(bare, 'rev-list', '--count', 'main').trim()).to.equal('4');
    expect(signers(bare, 1, 'main')).to.deep.equal([ALICE_SIGNS]);
  });
});
