/**
 * A force-push storm (issue 41): while clients PATCH through a GIT_SYNC replica, a teammate pushes
 * to the same branch again and again, half the time rewriting its history (a force-push of a
 * branch without the last commits). No PATCH answers 500; once the storm ends the clone follows the
 * remote exactly (same head, clean, served as the remote's files say); and every commit of netcfg's
 * that reached the remote and is no longer in its history was reported as dropped. The remote logs
 * each commit it receives (a post-receive hook), which is how the test knows what landed.
 * FORCE_PUSH_CYCLES (default 6; `make soak`: 100) and FORCE_PUSH_SEED change the run.
 */
import { readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../src/http/app.js';
import type { DroppedNote } from '../../src/store/git/sync-report.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { networkOf } from '../../src/store/network-record.js';
import { bareOf, cloneOf, remoteFile, startGitRemote, type GitRemote } from '../helpers/git-daemon.js';
import { git } from '../helpers/git-repo.js';
import { standardFiles } from '../helpers/fixtures.js';
import { envInt, seededRng } from '../helpers/reliability-rng.js';
import { startStore, until } from '../helpers/store.js';

const CYCLES = envInt('FORCE_PUSH_CYCLES', 6);
const SEED = envInt('FORCE_PUSH_SEED', 41);
const IDS = ['evm:sepolia', 'evm:mainnet', 'solana:devnet'];

describe('reliability: a force-push storm on a GIT_SYNC replica', function () {
  this.timeout(Math.max(60_000, CYCLES * 3_000));
  let remote: GitRemote;
  let store: NetworkStore | undefined;

  afterEach(async () => {
    await store?.close();
    store = undefined;
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  it(`${CYCLES} teammate pushes, half of them rewriting history, while clients PATCH`, async () => {
    remote = await startGitRemote(standardFiles());
    const landed = path.join(remote.dir, 'landed.log');
    writeFileSync(
      path.join(bareOf(remote), 'hooks', 'post-receive'),
      `#!/bin/sh\nwhile read old new ref; do git log --format='%H %an' "$old..$new" 2>/dev/null; done >> '${landed}'\n`,
      { mode: 0o755 },
    );
    const replica = cloneOf(remote, 'replica');
    const teammate = cloneOf(remote, 'teammate');
    const notes: DroppedNote[] = [];
    store = await startStore(path.join(replica, 'config', 'networks'), {
      gitSync: { intervalMs: 50, onDropped: (note) => notes.push(note) },
    });
    const s = store;
    const app = createApp(s).callback();
    const rng = seededRng(SEED);
    const statuses = new Map<number, number>();
    let stop = false;
    let n = 0;
    const client = async (): Promise<void> => {
      while (!stop) {
        const res = await request(app)
          .patch(`/api/v1/networks/${rng.pick(IDS)}`)
          .send({ rpc_urls: [`https://w${n++}.example.com`] });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, res.text).to.be.oneOf([200, 412, 503]);
        if (res.status === 503) expect(res.body.code, res.text).to.equal('GIT_REMOTE_UNAVAILABLE');
      }
    };
    const clients = [client(), client()];
    const clientsDone = Promise.allSettled(clients);
    try {
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        git(teammate, 'fetch', '-q', 'origin');
        const rewrite = rng.chance(0.5) && Number(git(teammate, 'rev-list', '--count', 'origin/main').trim()) > 2;
        git(teammate, 'reset', '-q', '--hard', rewrite ? `origin/main~${rng.int(1, 2)}` : 'origin/main');
        const file = path.join(teammate, 'config', 'networks', 'evm', 'sepolia.yaml');
        writeFileSync(
          file,
          readFileSync(file, 'utf8').replace(
            /^ {2}- (url: )?https:\/\/[^\n]+/m,
            `  - $1https://teammate-${cycle}.example.com`,
          ),
        );
        git(teammate, 'commit', '-qam', `teammate ${cycle}${rewrite ? ' (rewrote history)' : ''}`);
        try {
          git(teammate, 'push', '-q', ...(rewrite ? ['--force'] : []), 'origin', 'main');
        } catch {
          // the replica pushed in between: the next cycle starts from the remote's head again
        }
        await new Promise((r) => setTimeout(r, rng.int(50, 250)));
      }
    } finally {
      stop = true;
      await clientsDone;
    }
    await Promise.all(clients);
    expect(statuses.get(200) ?? 0, 'PATCHes went through').to.be.greaterThan(0);

    const remoteHead = git(bareOf(remote), 'rev-parse', 'main').trim();
    await until(
      s,
      () => s.readiness().components.git?.head === remoteHead && s.readiness().components.git?.ahead === 0,
      10_000,
      'the clone at the remote head',
    );
    await s.writesSettled();
    await s.whenIdle();
    expect(git(replica, 'status', '--porcelain')).to.equal('');
    for (const id of IDS) {
      const rel = `${id.replace(':', '/')}.yaml`;
      const onRemote = remoteFile(remote, rel).match(/https:\/\/[^\s]+/)?.[0];
      const served = (networkOf(s.get(id)).rpc_urls as Array<{ url: string }>)[0]?.url;
      expect(served, `${id} served as the remote holds it`).to.equal(onRemote);
    }
    const ours = existsSync(landed)
      ? readFileSync(landed, 'utf8')
          .split('\n')
          .filter((line) => line.endsWith(' netcfg'))
          .map((line) => line.split(' ')[0] as string)
      : [];
    const reachable = new Set(git(bareOf(remote), 'rev-list', 'main').trim().split('\n'));
    const lost = [...new Set(ours)].filter((sha) => !reachable.has(sha));
    const reported = new Set(notes.flatMap((note) => note.commits.map((c) => c.sha)));
    expect(
      lost.filter((sha) => !reported.has(sha)),
      `every acknowledged commit a force-push dropped was reported (${lost.length} dropped, ${notes.length} notes)`,
    ).to.deep.equal([]);
  });
});
