/**
 * One network in both of two branches, `git checkout -f` between them back to back while clients
 * PATCH it: git replaces the file (unlink, create) under netcfg's feet hundreds of times. The
 * network exists before and after every checkout, so no PATCH may answer 404 (or 409 for a file
 * git has created but not yet filled): one that finds the file gone or half there waits for git's
 * index.lock and edits what git wrote. CHECKOUT_RACES sets the count.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { removeDir } from '../helpers/fixtures.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { commitAll, git } from '../helpers/reliability-git.js';
import { call, keepAlive } from '../helpers/reliability-http.js';
import { envInt } from '../helpers/reliability-rng.js';

const CHECKOUTS = envInt('CHECKOUT_RACES', 300);

function network(branch: string, chainId: number): string {
  return `# ${branch}\nrpc_urls:\n  - https://${branch}.example.com\nchain_id: ${chainId}\n`;
}

describe('reliability: PATCH racing git checkout of its file', function () {
  this.timeout(180_000);
  let repo: string;
  let server: Server | undefined;

  before(async () => {
    repo = mkdtempSync(path.join(tmpdir(), 'netcfg-checkout-race-'));
    const config = path.join(repo, 'networks');
    mkdirSync(path.join(config, 'evm'), { recursive: true });
    writeFileSync(path.join(config, '.gitignore'), '.locks/\n.tmp/\n');
    writeFileSync(path.join(config, 'evm/hot.yaml'), network('a', 1));
    await commitAll(repo, 'a', 'a');
    await git(repo, 'checkout', '-q', '-b', 'b');
    writeFileSync(path.join(config, 'evm/hot.yaml'), network('b', 2));
    await git(repo, 'commit', '-q', '-am', 'b');
    server = await startServer({ CONFIG_DIR: config });
  });
  after(async () => {
    await server?.kill('SIGTERM');
    removeDir(repo);
  });

  it(`${CHECKOUTS} checkouts swapping the file while 3 clients PATCH it: never a 404`, async () => {
    const url = (server as Server).url;
    const outcomes = new Map<number, number>();
    const failures: string[] = [];
    let running = true;
    let seq = 0;
    const patcher = async (): Promise<void> => {
      const agent = keepAlive();
      while (running) {
        const body = JSON.stringify({ rpc_urls: [`https://p${++seq}.example.com`] });
        const reply = await call(url, 'PATCH', '/api/v1/networks/evm:hot', { agent, body });
        outcomes.set(reply.status, (outcomes.get(reply.status) ?? 0) + 1);
        // 412 says the file kept changing under three tries in a row (checkouts every few ms): the client retries.
        if (reply.status !== 200 && reply.status !== 412) failures.push(`${reply.status} ${reply.text.slice(0, 200)}`);
      }
      agent.destroy();
    };
    const clients = [patcher(), patcher(), patcher()];
    try {
      for (let i = 0; i < CHECKOUTS; i++) await git(repo, 'checkout', '-q', '-f', i % 2 === 0 ? 'a' : 'b');
    } finally {
      running = false;
      await Promise.all(clients);
    }
    const counts = [...outcomes].map(([status, n]) => `${n}x${status}`).join(', ');
    console.log(`      figures: ${CHECKOUTS} checkouts, PATCH outcomes ${counts}`);
    expect(failures, failures.slice(0, 5).join('\n')).to.deep.equal([]);
    expect(outcomes.get(200) ?? 0).to.be.greaterThan(CHECKOUTS / 10);
  });
});
