/**
 * GIT_SYNC and a replica killed with `kill -9` in the middle of a burst of PATCHes (the built
 * server as a child process, a real remote served by `git daemon` on loopback): every PATCH that got
 * its 200 is in the remote, and the replica restarts clean at the remote's head, past the
 * index.lock a git killed along with it leaves.
 */
import path from 'node:path';
import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../../helpers/child-server.js';
import { bareOf, cloneOf, remoteFile, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { git } from '../../helpers/git-repo.js';
import { networkYaml } from '../../helpers/fixtures.js';

const NETWORKS = 6;
const CLIENTS = 6;
/** 200s to wait for before the kill: enough that the kill lands with pushes in flight. */
const ANSWERED_BEFORE_KILL = 12;

describe('store/git/git-sync: kill -9 during a burst (child processes, git daemon on loopback)', function () {
  this.timeout(90_000);
  let remote: GitRemote;
  let replica: ChildServer | undefined;

  beforeEach(async () => {
    remote = await startGitRemote(
      Object.fromEntries(Array.from({ length: NETWORKS }, (_, i) => [`evm/n${i}.yaml`, networkYaml()])),
    );
  });
  afterEach(async () => {
    await replica?.stop('SIGKILL');
    replica = undefined;
    await remote.stop();
    // git commands the killed server started may still be finishing in the clone.
    rmSync(remote.dir, { recursive: true, force: true, maxRetries: 20 });
  });

  it('every PATCH answered 200 before the kill is in the remote; the replica restarts clean at the remote head and serves it', async () => {
    const clone = cloneOf(remote, 'replica');
    const env = {
      CONFIG_DIR: path.join(clone, 'config', 'networks'),
      GIT_SYNC: 'true',
      GIT_SYNC_INTERVAL_MS: '3600000',
    };
    const server = await startChild(env);
    replica = server;
    const answered: string[] = [];
    const unexpected: string[] = [];
    let killed = false;
    const killedNow = new Promise<void>((resolve) => {
      const client = async (c: number): Promise<void> => {
        for (let k = 0; !killed; k++) {
          const url = `https://c${c}-${k}.example.com`;
          const res = await fetch(`${server.url}/api/v1/networks/evm:n${(c + k) % NETWORKS}`, {
            method: 'PATCH',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ rpc_urls: [url] }),
          }).catch(() => null); // the kill cuts requests in flight
          if (res === null) return;
          if (res.status !== 200) unexpected.push(`${res.status} ${await res.text()}`);
          else answered.push(url);
          if (answered.length >= ANSWERED_BEFORE_KILL && !killed) {
            killed = true;
            server.process.kill('SIGKILL');
            resolve();
          }
        }
      };
      void Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    });
    await killedNow;
    await server.stop('SIGKILL');
    expect(unexpected, 'answers other than 200 before the kill').to.deep.equal([]);

    const history = git(bareOf(remote), 'log', '-p', '--format=%s', 'main', '--', 'config/networks');
    for (const url of answered) expect(history, `${url} was answered 200`).to.include(`+  - ${url}`);

    // A git command killed along with the server (a container's processes all go at once) leaves its lock.
    const indexLock = path.join(clone, '.git', 'index.lock');
    try {
      writeFileSync(indexLock, '', { flag: 'wx' });
      const anHourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(indexLock, anHourAgo, anHourAgo);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // a git of the killed server still at work
    }
    // A git push the killed server started may land after the restart: the next interval's pull brings it.
    replica = await startChild({ ...env, GIT_SYNC_INTERVAL_MS: '200' });
    expect(existsSync(indexLock), 'the stale index.lock').to.equal(false);
    const restarted = replica;
    const servedAsRemote = async (): Promise<boolean> => {
      for (let n = 0; n < NETWORKS; n++) {
        const served = (await (await fetch(`${restarted.url}/api/v1/networks/evm:n${n}`)).json()) as {
          data: { rpc_urls: Array<{ url: string }> };
        };
        if (!remoteFile(remote, `evm/n${n}.yaml`).includes(`  - ${served.data.rpc_urls[0]?.url}\n`)) return false;
      }
      return git(clone, 'rev-parse', 'HEAD') === git(bareOf(remote), 'rev-parse', 'main');
    };
    const deadline = Date.now() + 10_000;
    while (!(await servedAsRemote())) {
      if (Date.now() > deadline) expect.fail('the restarted replica did not serve the remote head within 10 s');
      await new Promise((r) => setTimeout(r, 100)); // one pull interval is 200 ms
    }
    expect(git(clone, 'status', '--porcelain'), 'the clone after the restart').to.equal('');
  });
});
