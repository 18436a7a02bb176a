/**
 * GIT_SYNC against a real remote (a bare repository served by `git daemon` on loopback): the
 * replica's clone follows the remote branch by its interval's head check and at once on a verified
 * webhook; an unreachable remote degrades readiness and reads go on.
 */
import { createHmac } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../../src/http/app.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { networkOf } from '../../../src/store/network-record.js';
import { cloneOf, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { git } from '../../helpers/git-repo.js';
import { standardFiles } from '../../helpers/fixtures.js';
import { startStore, until } from '../../helpers/store.js';
import { expectErrorEnvelope } from '../../helpers/write-support.js';

const SECRET = 'a webhook secret of the git host';
const HOUR = 3_600_000;

describe('store/git/git-sync (a real remote: git daemon on loopback)', function () {
  this.timeout(30_000);
  let remote: GitRemote;
  let replica: string;
  let store: NetworkStore | undefined;
  let pushes = 0;

  const folderOf = (clone: string): string => path.join(clone, 'config', 'networks');
  const urlsServed = (): string[] =>
    ((networkOf(store!.get('evm:sepolia')).rpc_urls ?? []) as Array<{ url: string }>).map((u) => u.url);
  /** A teammate's commit to evm:sepolia, pushed to the remote; returns the URL it puts first. */
  const teammatePushes = (teammate: string): string => {
    const url = `https://pushed-${++pushes}.example.com`;
    const file = path.join(folderOf(teammate), 'evm', 'sepolia.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^ {2}- https:\/\/[^\n]+/m, `  - ${url}`));
    git(teammate, 'commit', '-qam', `teammate: ${url}`);
    git(teammate, 'push', '-q', 'origin', 'main');
    return url;
  };

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

  it('a commit pushed by someone else is served within one interval; the clone stays clean', async () => {
    store = await startStore(folderOf(replica), { gitSync: { intervalMs: 200 } });
    const teammate = cloneOf(remote, 'teammate');
    const url = teammatePushes(teammate);
    const head = git(teammate, 'rev-parse', 'HEAD').trim();
    const s = store;
    await until(
      s,
      () => urlsServed()[0] === url && s.readiness().components.git?.head === head,
      5000,
      'the pushed change served, the pull done',
    );
    const gitState = s.readiness().components.git!;
    expect(gitState).to.include({
      upstream: 'origin/main',
      head,
      ahead: 0,
      behind: 0,
      last_error: null,
      status: 'healthy',
    });
    expect(git(replica, 'status', '--porcelain')).to.equal('');
  });

  const forms: Array<[string, (body: string) => Record<string, string>]> = [
    [
      'GitHub',
      (body) => ({ 'X-Hub-Signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` }),
    ],
    ['Gitea/Forgejo', (body) => ({ 'X-Gitea-Signature': createHmac('sha256', SECRET).update(body).digest('hex') })],
    ['GitLab', () => ({ 'X-Gitlab-Token': SECRET })],
  ];
  for (const [host, sign] of forms) {
    it(`a webhook signed as ${host} pulls at once (202); a wrong or missing signature pulls nothing (401)`, async () => {
      store = await startStore(folderOf(replica), { gitSync: { intervalMs: HOUR } });
      const s = store;
      const agent = request(createApp(s, { webhookSecret: SECRET }).callback());
      const teammate = cloneOf(remote, 'teammate');
      const url = teammatePushes(teammate);
      const body = JSON.stringify({ ref: 'refs/heads/main', after: git(teammate, 'rev-parse', 'HEAD').trim() });
      const pullsBefore = s.pullsStarted;
      const refusals: Array<Record<string, string>> = [
        {},
        { 'X-Hub-Signature-256': `sha256=${createHmac('sha256', 'another secret').update(body).digest('hex')}` },
        { 'X-Gitea-Signature': createHmac('sha256', SECRET).update(`${body} `).digest('hex') },
        { 'X-Gitlab-Token': `${SECRET}x` },
      ];
      for (const headers of refusals) {
        const refused = await agent
          .post('/api/v1/webhooks/git')
          .set('Content-Type', 'application/json')
          .set(headers)
          .send(body);
        expectErrorEnvelope(refused, 401, 'UNAUTHORIZED');
      }
      expect(s.pullsStarted, 'pulls started by refused webhooks').to.equal(pullsBefore);
      expect(urlsServed()[0]).to.not.equal(url);
      const accepted = await agent
        .post('/api/v1/webhooks/git')
        .set('Content-Type', 'application/json')
        .set(sign(body))
        .send(body);
      expect(accepted.status, accepted.text).to.equal(202);
      await until(s, () => urlsServed()[0] === url, 2000, 'the pushed change served after the webhook');
    });
  }

  it('without GIT_WEBHOOK_SECRET the webhook route does not exist; a body over 1 MiB is 413', async () => {
    store = await startStore(folderOf(replica), { gitSync: { intervalMs: HOUR } });
    expectErrorEnvelope(
      await request(createApp(store).callback()).post('/api/v1/webhooks/git').send('{}'),
      404,
      'ROUTE_NOT_FOUND',
    );
    const big = 'x'.repeat(1024 * 1024 + 1);
    expectErrorEnvelope(
      await request(createApp(store, { webhookSecret: SECRET }).callback())
        .post('/api/v1/webhooks/git')
        .set('Content-Type', 'text/plain')
        .send(big),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('the remote down: git degraded with the error, reads go on, never 503; back up: the next interval pulls', async () => {
    store = await startStore(folderOf(replica), { gitSync: { intervalMs: 100 } });
    const s = store;
    const teammate = cloneOf(remote, 'teammate');
    await remote.stop();
    await until(s, () => s.readiness().components.git?.status === 'degraded', 5000, 'git degraded');
    const ready = s.readiness();
    expect(ready.ready).to.equal(true);
    expect(ready.components.git?.last_error).to.match(/git pull from origin\/main failed/);
    expect(urlsServed()).to.have.length.greaterThan(0);
    await remote.start();
    const url = teammatePushes(teammate);
    await until(
      s,
      () => urlsServed()[0] === url && s.readiness().components.git?.status === 'healthy',
      5000,
      'pulled once the remote is back',
    );
    expect(git(replica, 'status', '--porcelain')).to.equal('');
  });

  /** The file as the remote's branch holds it now. */
  const remoteFile = (rel: string): string =>
    git(path.join(remote.dir, 'served', 'networks.git'), 'show', `main:config/networks/${rel}`);
  const patch = (s: NetworkStore, url: string, ifMatch?: string) => {
    const req = request(createApp(s).callback()).patch('/api/v1/networks/evm:sepolia');
    return (ifMatch ? req.set('If-Match', ifMatch) : req).send({ rpc_urls: [url] });
  };

  it('a PATCH is in the remote (comments kept) before its 200; another replica serves it within one interval', async () => {
    store = await startStore(folderOf(replica), { gitSync: { intervalMs: HOUR } });
    const other = await startStore(folderOf(cloneOf(remote, 'replica-b')), { gitSync: { intervalMs: 200 } });
    try {
      const res = await patch(store, 'https://patched.example.com');
      expect(res.status, res.text).to.equal(200);
      const pushed = remoteFile('evm/sepolia.yaml');
      expect(pushed).to.include('https://patched.example.com').and.include('# test network');
      expect(git(replica, 'status', '--porcelain')).to.equal('');
      expect(store.readiness().components.git)
        .to.include({ ahead: 0, last_error: null })
        .and.have.property('last_push_at')
        .that.is.a('string');
      const b = other;
      await until(
        b,
        () =>
          (networkOf(b.get('evm:sepolia')).rpc_urls as Array<{ url: string }>)[0]?.url ===
          'https://patched.example.com',
        5000,
        'replica B serves the change',
      );
    } finally {
      await other.close();
    }
  });

  it('a teammate changed the same file meanwhile: a PATCH without If-Match is put on top (both changes in the remote); a stale If-Match is 412', async () => {
    store = await startStore(folderOf(replica), { gitSync: { intervalMs: HOUR } });
    const teammate = cloneOf(remote, 'teammate');
    const file = path.join(folderOf(teammate), 'evm', 'sepolia.yaml');
    const etagRead = (await request(createApp(store).callback()).get('/api/v1/networks/evm:sepolia')).headers
      .etag as string;
    writeFileSync(file, `${readFileSync(file, 'utf8')}symbol: TEAM\n`);
    git(teammate, 'commit', '-qam', 'teammate: symbol');
    git(teammate, 'push', '-q', 'origin', 'main');
    expectErrorEnvelope(await patch(store, 'https://stale.example.com', etagRead), 412, 'PRECONDITION_FAILED');
    expect(remoteFile('evm/sepolia.yaml')).to.not.include('https://stale.example.com');
    const res = await patch(store, 'https://mine.example.com');
    expect(res.status, res.text).to.equal(200);
    expect(remoteFile('evm/sepolia.yaml')).to.include('symbol: TEAM').and.include('https://mine.example.com');
    expect(git(replica, 'status', '--porcelain')).to.equal('');
  });

  it('the remote down: PATCH 503 GIT_REMOTE_UNAVAILABLE, the clone clean at the remote head, the old version served; back up: 200', async () => {
    store = await startStore(folderOf(replica), { gitSync: { intervalMs: HOUR } });
    const headBefore = git(replica, 'rev-parse', 'HEAD');
    const servedBefore = urlsServed();
    await remote.stop();
    expectErrorEnvelope(await patch(store, 'https://unpushed.example.com'), 503, 'GIT_REMOTE_UNAVAILABLE');
    expect(git(replica, 'status', '--porcelain')).to.equal('');
    expect(git(replica, 'rev-parse', 'HEAD')).to.equal(headBefore);
    expect(urlsServed()).to.deep.equal(servedBefore);
    expect(store.readiness().ready).to.equal(true);
    await remote.start();
    const res = await patch(store, 'https://pushed-later.example.com');
    expect(res.status, res.text).to.equal(200);
    expect(remoteFile('evm/sepolia.yaml')).to.include('https://pushed-later.example.com');
  });

  it('GIT_SYNC in a clone whose branch tracks nothing fails the start with a sentence saying so', async () => {
    git(replica, 'branch', '--unset-upstream');
    const err = await startStore(folderOf(replica), { gitSync: { intervalMs: HOUR } }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).to.match(/GIT_SYNC needs CONFIG_DIR inside a clone whose branch tracks a remote branch/);
  });
});
