/**
 * GIT_SYNC against what a teammate with push access and a git host that stalls can do (issue 41):
 * the config folder pushed as a link out of the clone, a remote that accepts the connection and
 * never answers, a force-push that drops an acknowledged change, the branch deleted, every network
 * deleted. A real remote (`git daemon` on loopback), a real teammate clone, real links.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../../src/http/app.js';
import { gitProcessesRunning } from '../../../src/store/git/git-process.js';
import type { DroppedNote } from '../../../src/store/git/sync-report.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { networkOf } from '../../../src/store/network-record.js';
import { bareOf, cloneOf, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { git } from '../../helpers/git-repo.js';
import { networkYaml, standardFiles } from '../../helpers/fixtures.js';
import { startStallServer } from '../../helpers/stall-server.js';
import { startStore, until } from '../../helpers/store.js';
import { expectErrorEnvelope } from '../../helpers/write-support.js';

const HOUR = 3_600_000;

describe('store/git/git-sync: a hostile remote (a real remote: git daemon on loopback)', function () {
  this.timeout(30_000);
  let remote: GitRemote;
  let replica: string;
  let store: NetworkStore | undefined;

  const folderOf = (clone: string): string => path.join(clone, 'config', 'networks');
  const urlsOf = (id: string): string[] =>
    ((networkOf(store!.get(id)).rpc_urls ?? []) as Array<{ url: string }>).map((u) => u.url);
  const patch = (id: string, url: string) =>
    request(createApp(store!).callback())
      .patch(`/api/v1/networks/${id}`)
      .send({ rpc_urls: [url] });
  const listAll = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

  beforeEach(async () => {
    remote = await startGitRemote(standardFiles());
    replica = cloneOf(remote, 'replica');
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  it('the config folder pushed as a link out of the clone: never served, written or pushed; readiness says so; a restart starts', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'netcfg-outside-'));
    try {
      writeFileSync(
        path.join(mkdirp(outside, 'networks/evm'), 'sepolia.yaml'),
        networkYaml({ rpc_urls: ['https://outside.example.com'] }),
      );
      writeFileSync(
        path.join(mkdirp(outside, 'networks/vic'), 'tim.yaml'),
        networkYaml({ rpc_urls: ['https://outside.example.com'] }),
      );
      const outsideBefore = listAll(outside);
      const sepolia = readFileSync(path.join(outside, 'networks/evm/sepolia.yaml'));
      store = await startStore(folderOf(replica), { gitSync: { intervalMs: 100 } });
      const served = store.ids().sort();

      const teammate = cloneOf(remote, 'teammate');
      git(teammate, 'rm', '-r', '-q', 'config/networks');
      mkdirSync(path.join(teammate, 'config'), { recursive: true });
      symlinkSync(path.join(outside, 'networks'), folderOf(teammate));
      git(teammate, 'add', '-A');
      git(teammate, 'commit', '-qm', 'networks now live elsewhere');
      git(teammate, 'push', '-q', 'origin', 'main');

      const s = store;
      await until(
        s,
        () => s.readiness().components.index.problem?.includes('symbolic link') === true,
        5000,
        'the link reported',
      );
      expect(s.readiness()).to.include({ ready: true, status: 'degraded' });
      expect(s.ids().sort(), 'the last good versions stay served').to.deep.equal(served);
      expect(urlsOf('evm:sepolia')).to.not.include('https://outside.example.com');
      expectErrorEnvelope(await patch('evm:sepolia', 'https://written.example.com'), 409, 'FILE_INVALID');
      expect(
        readFileSync(path.join(outside, 'networks/evm/sepolia.yaml')).equals(sepolia),
        'the outside file untouched',
      ).to.equal(true);
      expect(listAll(outside), 'no byte written outside the clone').to.deep.equal(outsideBefore);
      expect(git(bareOf(remote), 'ls-tree', '-r', '--name-only', 'main')).to.not.include('..');

      await s.close();
      store = await startStore(folderOf(replica), { gitSync: { intervalMs: HOUR } });
      expect(store.readiness()).to.include({ ready: true });
      expect(store.readiness().components.index.problem).to.include('symbolic link');
      expect(store.ids().length, 'nothing from outside the clone').to.equal(0);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a remote that accepts and never answers: readiness says so, a PATCH gets 503 within the deadline, close() kills git', async () => {
    const stall = await startStallServer();
    try {
      git(replica, 'remote', 'set-url', 'origin', `git://127.0.0.1:${stall.port}/networks.git`);
      store = await startStore(folderOf(replica), { gitSync: { intervalMs: HOUR, remoteTimeoutMs: 500 } });
      const gitState = store.readiness().components.git!;
      expect(gitState.status).to.equal('degraded');
      expect(gitState.last_error).to.include('gave no answer within 500 ms');
      const res = await patch('evm:sepolia', 'https://late.example.com');
      expectErrorEnvelope(res, 503, 'GIT_REMOTE_UNAVAILABLE');
      expect(res.body.error).to.include('gave no answer');
      expect(urlsOf('evm:sepolia')).to.not.include('https://late.example.com');

      // Shutdown with a push in flight: the writer hears 503 and no git is left running.
      const accepted = stall.accepted();
      const inFlight = patch('evm:sepolia', 'https://during-close.example.com').then((r) => r);
      await until(store, () => stall.accepted() > accepted, 5000, 'the push connected');
      await store.close(0);
      store = undefined;
      expectErrorEnvelope(await inFlight, 503, 'GIT_REMOTE_UNAVAILABLE');
      await stall.allClosed(5000);
      expect(gitProcessesRunning()).to.equal(0);
    } finally {
      await stall.close();
    }
  });

  it('a force-push dropping an acknowledged change: the clone follows the remote and says which commit was dropped, by which push', async () => {
    const notes: DroppedNote[] = [];
    store = await startStore(folderOf(replica), {
      gitSync: { intervalMs: HOUR, onDropped: (note) => notes.push(note) },
    });
    expect((await patch('evm:sepolia', 'https://acknowledged.example.com')).status).to.equal(200);
    const teammate = cloneOf(remote, 'teammate');
    git(teammate, 'reset', '-q', '--hard', 'HEAD~1');
    const file = path.join(folderOf(teammate), 'evm', 'mainnet.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/^ {2}- https:\/\/[^\n]+/m, '  - https://teammate.example.com'),
    );
    git(teammate, 'commit', '-qam', 'teammate: rewrite');
    git(teammate, 'push', '-q', '--force', 'origin', 'main');
    const head = git(teammate, 'rev-parse', 'HEAD').trim();

    const s = store;
    s.pullNow();
    await until(
      s,
      () =>
        urlsOf('evm:mainnet')[0] === 'https://teammate.example.com' &&
        !urlsOf('evm:sepolia').includes('https://acknowledged.example.com'),
      5000,
      "the remote's history served",
    );
    const gitState = s.readiness().components.git!;
    expect(gitState).to.include({ head, behind: 0, ahead: 0, status: 'degraded' });
    expect(gitState.dropped?.remote_head).to.equal(head);
    expect(gitState.dropped?.commits.map((c) => c.subject)).to.deep.equal(['netcfg: update rpc_urls of evm:sepolia']);
    expect(s.readiness().reason).to.include('force-push');
    expect(notes).to.have.length(1);
    expect(git(replica, 'status', '--porcelain')).to.equal('');
  });

  it('the remote branch deleted: a PATCH is refused and never re-creates it; readiness says so; reads go on', async () => {
    store = await startStore(folderOf(replica), { gitSync: { intervalMs: HOUR } });
    git(bareOf(remote), 'update-ref', '-d', 'refs/heads/main');
    // Before any pull noticed: the push's lease refuses to make the branch again.
    expectErrorEnvelope(await patch('evm:sepolia', 'https://recreate.example.com'), 503, 'GIT_REMOTE_UNAVAILABLE');
    expect(git(bareOf(remote), 'for-each-ref', 'refs/heads')).to.equal('');
    const s = store;
    s.pullNow();
    await until(s, () => s.readiness().components.git?.branch_missing === true, 5000, 'the missing branch reported');
    expect(s.readiness().components.git).to.include({ status: 'degraded' });
    const res = await patch('evm:sepolia', 'https://recreate.example.com');
    expectErrorEnvelope(res, 503, 'GIT_REMOTE_UNAVAILABLE');
    expect(res.body.error).to.include('does not exist');
    expect(git(bareOf(remote), 'for-each-ref', 'refs/heads')).to.equal('');
    expect(urlsOf('evm:sepolia')).to.not.include('https://recreate.example.com');
  });

  it('a commit deleting every network: served as the remote says (none), and readiness says the folder is empty', async () => {
    store = await startStore(folderOf(replica), { gitSync: { intervalMs: HOUR } });
    const teammate = cloneOf(remote, 'teammate');
    git(teammate, 'rm', '-r', '-q', 'config/networks');
    git(teammate, 'commit', '-qm', 'delete everything');
    git(teammate, 'push', '-q', 'origin', 'main');
    const s = store;
    s.pullNow();
    await until(s, () => s.ids().length === 0, 5000, 'no network served');
    const ready = s.readiness();
    expect(ready).to.include({ ready: true, status: 'degraded' });
    expect(ready.components.index.problem).to.include('holds no network');
  });
});

function mkdirp(base: string, rel: string): string {
  const dir = path.join(base, rel);
  mkdirSync(dir, { recursive: true });
  return dir;
}
