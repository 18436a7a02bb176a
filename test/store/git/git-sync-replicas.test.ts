/**
 * GIT_SYNC with several replicas: each a built netcfg process on its own clone of one remote (a
 * bare repository served by `git daemon` on loopback), as on several machines. Concurrent PATCHes
 * through both lose nothing, If-Match holds across them, and a busy replica does not starve another.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { ChildServer } from '../../helpers/child-server.js';
import { startChildren } from '../../helpers/child-servers.js';
import { cloneOf, remoteFile, remoteSubjects, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { git } from '../../helpers/git-repo.js';
import { networkYaml, standardFiles } from '../../helpers/fixtures.js';

const HOUR = '3600000';

describe('store/git/git-sync: replicas (child processes, git daemon on loopback)', function () {
  this.timeout(180_000);
  let remote: GitRemote;
  let replicas: ChildServer[] = [];

  async function start(files: Record<string, string>, count: number): Promise<ChildServer[]> {
    remote = await startGitRemote(files);
    replicas = await startChildren(
      Array.from({ length: count }, (_, i) => ({
        CONFIG_DIR: path.join(cloneOf(remote, `replica-${i}`), 'config', 'networks'),
        GIT_SYNC: 'true',
        GIT_SYNC_INTERVAL_MS: HOUR,
      })),
    );
    return replicas;
  }
  const patch = (replica: ChildServer, id: string, url: string, ifMatch?: string): Promise<Response> =>
    fetch(`${replica.url}/api/v1/networks/${id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', ...(ifMatch ? { 'If-Match': ifMatch } : {}) },
      body: JSON.stringify({ rpc_urls: [url] }),
    });

  afterEach(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    replicas = [];
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  it('20 PATCHes at once to 10 networks through two replicas: all 200 (rejected pushes made again), all 20 commits in the remote', async () => {
    const [a, b] = await start(
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`evm/n${i}.yaml`, networkYaml()])),
      2,
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => patch(i % 2 === 0 ? a! : b!, `evm:n${i % 10}`, `https://w${i}.example.com`)),
    );
    const texts = await Promise.all(answers.map((r) => r.text()));
    expect(
      answers.map((r) => r.status),
      texts.join('\n'),
    ).to.deep.equal(Array(20).fill(200));
    expect(remoteSubjects(remote).filter((m) => m.startsWith('netcfg: update rpc_urls of evm:n'))).to.have.length(20);
    for (let n = 0; n < 10; n++)
      expect(remoteFile(remote, `evm/n${n}.yaml`)).to.match(new RegExp(`https://w(${n}|${n + 10})\\.example\\.com`));
    for (const i of [0, 1])
      expect(git(path.join(remote.dir, `replica-${i}`), 'status', '--porcelain'), `replica ${i}'s clone`).to.equal('');
  });

  it(
    '4 clients x 25 PATCHes with If-Match to one network through two replicas: each ETag wins at most ' +
      'once, the 200s form one chain that the remote ends at, each one a commit in it',
    async () => {
      const agents = await start(standardFiles(), 2);
      const wins: Array<{ read: string; wrote: string }> = [];
      let refused = 0;
      await Promise.all(
        [0, 1, 2, 3].map(async (client) => {
          const replica = agents[client % 2] as ChildServer;
          for (let k = 0; k < 25; k++) {
            const read = (await fetch(`${replica.url}/api/v1/networks/evm:sepolia`)).headers.get('etag') as string;
            const res = await patch(replica, 'evm:sepolia', `https://c${client}-${k}.example.com`, read);
            const text = await res.text();
            if (res.status === 200) wins.push({ read, wrote: res.headers.get('etag') as string });
            else if (res.status === 412) refused++;
            else expect.fail(`client ${client} PATCH ${k}: ${res.status} ${text}`);
          }
        }),
      );
      expect(new Set(wins.map((w) => w.read)).size, 'an ETag won twice').to.equal(wins.length);
      const commits = remoteSubjects(remote).filter((m) => m.startsWith('netcfg: update rpc_urls of evm:sepolia'));
      expect(commits, `${wins.length} PATCHes answered 200, ${refused} 412`).to.have.length(wins.length);
      // One chain: from the seed's version, each 200 wrote over the version the one before it wrote, up to the remote's file.
      const etagOf = (text: string): string => `"${createHash('sha256').update(text).digest('base64url')}"`;
      const next = new Map(wins.map((w) => [w.read, w.wrote]));
      let at = etagOf(standardFiles()['evm/sepolia.yaml'] as string);
      let links = 0;
      while (next.has(at)) {
        at = next.get(at) as string;
        links++;
      }
      expect(links, 'the 200s form one chain from the seed').to.equal(wins.length);
      expect(at, 'the chain ends at the remote').to.equal(etagOf(remoteFile(remote, 'evm/sepolia.yaml')));
      expect(wins.length).to.be.greaterThan(0);
    },
  );

  it('a replica whose pushes a busy one keeps beating still gets its PATCH in while the busy one goes on', async () => {
    const [a, b] = await start(
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`evm/n${i}.yaml`, networkYaml()])),
      2,
    );
    let stop = false;
    const deadline = setTimeout(() => (stop = true), 25_000); // the busy writers stop then, whatever happened
    try {
      let answered = 0;
      let firstTenAnswered: () => void = () => undefined;
      const busyNow = new Promise<void>((resolve) => (firstTenAnswered = resolve));
      const busy = Promise.all(
        [0, 1, 2, 3, 4].map(async (w) => {
          for (let k = 0; !stop; k++) {
            const res = await patch(a!, `evm:n${w}`, `https://busy-${w}-${k}.example.com`);
            expect(res.status, await res.text()).to.equal(200);
            if (++answered === 10) firstTenAnswered();
          }
        }),
      );
      await busyNow; // replica A pushes back-to-back now
      const res = await patch(b!, 'evm:n9', 'https://from-b.example.com');
      const busyMeanwhile = !stop;
      stop = true;
      await busy;
      expect(res.status, await res.text()).to.equal(200);
      expect(busyMeanwhile, "B's PATCH answered only once A's writers stopped").to.equal(true);
      expect(remoteFile(remote, 'evm/n9.yaml')).to.include('https://from-b.example.com');
    } finally {
      clearTimeout(deadline);
      stop = true;
    }
  });
});
