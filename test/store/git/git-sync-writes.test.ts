/**
 * GIT_SYNC's writes against a real remote (a bare repository served by `git daemon` on loopback,
 * with hooks): a write is served once the remote has it, writes that arrive during a push go out
 * together in the next one, a commit git refuses changes nothing, and no credential of the remote's
 * URL reaches a client or the log.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../../src/http/app.js';
import { createLogger } from '../../../src/log.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { networkOf } from '../../../src/store/network-record.js';
import {
  cloneOf,
  gateFirstPush,
  remoteFile,
  remoteSubjects,
  startGitRemote,
  type GitRemote,
} from '../../helpers/git-daemon.js';
import { git } from '../../helpers/git-repo.js';
import { networkYaml } from '../../helpers/fixtures.js';
import { startStore, until } from '../../helpers/store.js';
import { expectErrorEnvelope } from '../../helpers/write-support.js';

const HOUR = 3_600_000;
const NETWORKS = 10;

describe('store/git/git-sync: writes (a real remote: git daemon on loopback)', function () {
  this.timeout(30_000);
  let remote: GitRemote;
  let replica: string;
  let store: NetworkStore;

  const folder = (): string => path.join(replica, 'config', 'networks');
  const firstUrl = (id: string): string | undefined =>
    (networkOf(store.get(id)).rpc_urls as Array<{ url: string }> | undefined)?.[0]?.url;
  const patch = (id: string, url: string) =>
    request(createApp(store).callback())
      .patch(`/api/v1/networks/${id}`)
      .send({ rpc_urls: [url] });

  beforeEach(async () => {
    remote = await startGitRemote(
      Object.fromEntries(Array.from({ length: NETWORKS }, (_, i) => [`evm/n${i}.yaml`, networkYaml()])),
    );
    replica = cloneOf(remote, 'replica');
    store = await startStore(folder(), { gitSync: { intervalMs: HOUR } });
  });
  afterEach(async () => {
    await store.close();
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  it('a PATCH is served once the remote has it: while its push waits in the remote, the disk has it and GET serves the old version', async () => {
    const gate = gateFirstPush(remote);
    const before = firstUrl('evm:n0');
    const answer = patch('evm:n0', 'https://new.example.com').then((res) => res);
    await gate.waiting();
    expect(readFileSync(path.join(folder(), 'evm', 'n0.yaml'), 'utf8')).to.include('https://new.example.com');
    await store.whenIdle(); // the watcher saw the new file, and still serves the pushed one
    expect(firstUrl('evm:n0')).to.equal(before);
    expect(store.readiness().components.git).to.include({ ahead: 1 });
    gate.release();
    const res = await answer;
    expect(res.status, res.text).to.equal(200);
    expect(firstUrl('evm:n0')).to.equal('https://new.example.com');
    expect(remoteFile(remote, 'evm/n0.yaml')).to.include('https://new.example.com');
  });

  it('PATCHes that arrive while a push is in flight are committed, each on its own, and go out together in the next push', async () => {
    const gate = gateFirstPush(remote);
    const first = patch('evm:n0', 'https://w0.example.com').then((res) => res);
    await gate.waiting();
    const rest = Array.from({ length: NETWORKS - 1 }, (_, i) =>
      patch(`evm:n${i + 1}`, `https://w${i + 1}.example.com`).then((res) => res),
    );
    await until(
      store,
      () => store.readiness().components.git?.ahead === NETWORKS,
      10_000,
      'all ten committed, one push in flight',
    );
    gate.release();
    const answers = await Promise.all([first, ...rest]);
    expect(
      answers.map((r) => r.status),
      answers.map((r) => r.text).join('\n'),
    ).to.deep.equal(Array(NETWORKS).fill(200));
    expect(gate.pushes(), 'pushes for ten PATCHes').to.equal(2);
    expect(remoteSubjects(remote).filter((s) => s.startsWith('netcfg: update rpc_urls of evm:n'))).to.have.length(
      NETWORKS,
    );
    for (let n = 0; n < NETWORKS; n++)
      expect(remoteFile(remote, `evm/n${n}.yaml`)).to.include(`https://w${n}.example.com`);
    expect(git(replica, 'status', '--porcelain')).to.equal('');
  });

  it(
    'a commit git refuses (a hook refusing the ref it goes to): 503 STORAGE_UNAVAILABLE, the clone ' +
      'clean, the old version served, the remote unchanged; hook gone: 200',
    async () => {
      const hook = path.join(replica, '.git', 'hooks', 'reference-transaction');
      writeFileSync(
        hook,
        `#!/bin/sh\n[ "$1" = prepared ] || exit 0\nif grep -q ' refs/netcfg/'; then echo 'refused by policy' >&2; exit 1; fi\n`,
        { mode: 0o755 },
      );
      const before = {
        served: firstUrl('evm:n3'),
        remote: remoteFile(remote, 'evm/n3.yaml'),
        head: git(replica, 'rev-parse', 'HEAD'),
      };
      const res = await patch('evm:n3', 'https://refused.example.com');
      expectErrorEnvelope(res, 503, 'STORAGE_UNAVAILABLE');
      expect(res.body.error).to.match(/git could not commit config\/networks\/evm\/n3\.yaml/);
      expect(git(replica, 'status', '--porcelain')).to.equal('');
      expect(git(replica, 'rev-parse', 'HEAD')).to.equal(before.head);
      expect(firstUrl('evm:n3')).to.equal(before.served);
      expect(remoteFile(remote, 'evm/n3.yaml')).to.equal(before.remote);
      rmSync(hook);
      const ok = await patch('evm:n3', 'https://accepted.example.com');
      expect(ok.status, ok.text).to.equal(200);
      expect(remoteFile(remote, 'evm/n3.yaml')).to.include('https://accepted.example.com');
    },
  );

  // Issue 41: a token in the query, and a password holding a '/', showed in clear.
  const secrets: Array<[string, (port: string) => string, string]> = [
    ['a password', (port) => `http://netcfg:secret-token@127.0.0.1:${port}/networks.git`, 'secret-token'],
    [
      'a token in the query',
      (port) => `http://127.0.0.1:${port}/networks.git?access_token=s3cret-t0ken`,
      's3cret-t0ken',
    ],
    ['a password holding a /', (port) => `http://netcfg:secret/t0ken@127.0.0.1:${port}/networks.git`, 't0ken'],
  ];
  for (const [what, urlOf, secret] of secrets) {
    it(`a remote URL with ${what}: the 503, readiness and the log never show it`, async () => {
      const port = new URL(remote.url).port;
      await remote.stop();
      git(replica, 'remote', 'set-url', 'origin', urlOf(port));
      const logDir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-log-'));
      try {
        const logFile = path.join(logDir, 'log.ndjson');
        const res = await request(createApp(store, { logger: createLogger('debug', logFile) }).callback())
          .patch('/api/v1/networks/evm:n1')
          .send({ rpc_urls: ['https://a.example.com'] });
        expectErrorEnvelope(res, 503, 'GIT_REMOTE_UNAVAILABLE');
        expect(store.pullNow()).to.equal(true);
        await until(
          store,
          () => store.readiness().components.git?.last_error?.includes('pull') === true,
          5000,
          'a failed pull',
        );
        const said = [res.text, JSON.stringify(store.readiness()), readFileSync(logFile, 'utf8')].join('\n');
        expect(said).to.include('GIT_REMOTE_UNAVAILABLE');
        expect(said).to.not.include(secret);
      } finally {
        rmSync(logDir, { recursive: true, force: true });
      }
    });
  }
});
