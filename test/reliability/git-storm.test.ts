/**
 * git pull storm: the config folder is in a real git work tree and `git checkout -f` swaps it
 * between two commits that differ in 1,000 files, back and forth, while clients read and PATCH
 * through one built server. Reads never answer 5xx; a PATCH racing a checkout answers 200, 404 or
 * 412 (never 404 for a network both commits hold: it waits for git and edits what git wrote) and,
 * when it writes, writes onto the checked-out version (its other fields and comment are the commit's);
 * a deleted file is never brought back (git status shows no untracked file); and at the end the
 * list endpoint equals a fresh parse of the folder.
 * The storm uses `checkout -f`: a PATCH leaves the work tree dirty, and a plain checkout refuses to
 * overwrite it (the first test shows what an operator sees). STORM_CYCLES changes the round trips.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parseDocument } from 'yaml';
import { removeDir } from '../helpers/fixtures.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { listAll, readFolderNetworks } from '../helpers/reliability-disk.js';
import { git, makeStormRepo, type StormRepo } from '../helpers/reliability-git.js';
import { call, keepAlive } from '../helpers/reliability-http.js';
import { envInt, seededRng } from '../helpers/reliability-rng.js';

const CYCLES = envInt('STORM_CYCLES', 10);
const SEED = envInt('STORM_SEED', 99);
// Present in A only, in B only, in both (edited or not), and in the renamed family.
const HOT = [
  'evm:e-0001',
  'evm:e-0002',
  'evm:e-0401',
  'evm:e-0555',
  'old:o-001',
  'new:o-001',
  'evm:a-001',
  'solana:s-001',
];
// In both commits (edited or not): a checkout replaces their files but never removes them, so a PATCH on them is never a 404.
const IN_BOTH = new Set(['evm:e-0001', 'evm:e-0002', 'evm:e-0555', 'solana:s-001']);
const relOf = (id: string): string => `${id.replace(':', '/')}.yaml`;

/** A network file's content apart from rpc_urls (the one field PATCH changes), comment included. */
function besidesUrls(text: string): string {
  const data = parseDocument(text).toJS() as Record<string, unknown>;
  delete data.rpc_urls;
  return `${text.split('\n')[0]} ${JSON.stringify(data)}`;
}

describe('reliability: git pull storm', function () {
  this.timeout(120_000);
  let storm: StormRepo;
  let server: Server;

  before(async () => {
    storm = await makeStormRepo();
    server = await startServer({ CONFIG_DIR: storm.config });
  });
  after(async () => {
    await server?.kill('SIGTERM');
    if (storm) removeDir(storm.repo);
  });

  it('what an operator sees: a plain checkout over a PATCHed file is refused by git, and netcfg keeps serving', async () => {
    const patched = await call(server.url, 'PATCH', '/api/v1/networks/evm:e-0001', {
      body: JSON.stringify({ rpc_urls: ['https://patched.example.com'] }),
    });
    expect(patched.status, patched.text).to.equal(200);
    const refused = await git(storm.repo, 'checkout', '-q', storm.b).then(
      () => null,
      (err: { stderr?: string }) => String(err.stderr),
    );
    expect(refused, 'git overwrote an uncommitted PATCH').to.match(/would be overwritten/);
    expect((await git(storm.repo, 'rev-parse', 'HEAD')).trim()).to.equal(storm.a);
    const served = await call(server.url, 'GET', '/api/v1/networks/evm:e-0001');
    expect(served.text).to.include('patched.example.com');
  });

  it(`${CYCLES} round trips between commits 1,000 files apart while clients read and PATCH`, async () => {
    expect(storm.changed).to.be.at.least(1000);
    const committed = new Map<string, Map<string, string>>(); // commit -> hot rel -> besidesUrls
    for (const commit of [storm.a, storm.b]) {
      const versions = new Map<string, string>();
      for (const id of HOT) {
        const text = await git(storm.repo, 'show', `${commit}:networks/${relOf(id)}`).catch(() => null);
        if (text !== null) versions.set(relOf(id), besidesUrls(text));
      }
      committed.set(commit, versions);
    }

    const rng = seededRng(SEED);
    const failures: string[] = [];
    const outcomes = new Map<number, number>();
    const inFlight = new Set<Promise<unknown>>();
    let reads = 0;
    let running = true;
    let seq = 0;

    const patcher = async (client: number): Promise<void> => {
      const agent = keepAlive();
      while (running) {
        const id = rng.pick(HOT);
        const headers: Record<string, string> = {};
        if (rng.chance(0.5)) {
          const got = await call(server.url, 'GET', `/api/v1/networks/${id}`, { agent });
          if (got.status === 200) headers['if-match'] = String(got.headers.etag);
        }
        const body = JSON.stringify({
          rpc_urls: [{ url: `https://p${++seq}.c${client}.example.com`, weight: rng.int(1, 100) }],
        });
        const request = call(server.url, 'PATCH', `/api/v1/networks/${id}`, { agent, body, headers });
        inFlight.add(request);
        const reply = await request.finally(() => inFlight.delete(request));
        outcomes.set(reply.status, (outcomes.get(reply.status) ?? 0) + 1);
        if (![200, 404, 412].includes(reply.status) || (reply.status === 404 && IN_BOTH.has(id)))
          failures.push(`PATCH ${id}: ${reply.status} ${reply.text}`);
      }
      agent.destroy();
    };
    const reader = async (): Promise<void> => {
      const agent = keepAlive();
      while (running) {
        const path = rng.chance(0.5)
          ? `/api/v1/networks?per_page=100&page=${rng.int(1, 12)}`
          : `/api/v1/networks/${rng.pick(HOT)}`;
        const reply = await call(server.url, 'GET', path, { agent });
        reads++;
        if (reply.status >= 500 || (path.includes('?') && reply.status !== 200))
          failures.push(`GET ${path}: ${reply.status} ${reply.text.slice(0, 200)}`);
      }
      agent.destroy();
    };
    const clients = [patcher(1), patcher(2), patcher(3), reader(), reader()];

    let checkouts = 0;
    try {
      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        for (const commit of [storm.b, storm.a]) {
          await git(storm.repo, 'checkout', '-q', '-f', commit);
          checkouts++;
          // PATCHes that raced this checkout are settled before the tree is judged.
          await Promise.allSettled([...inFlight]);
          const status = (await git(storm.repo, 'status', '--porcelain', '--untracked-files=all'))
            .split('\n')
            .filter((l) => l !== '');
          for (const line of status.filter((l) => !l.startsWith(' M ')))
            failures.push(`checkout ${checkouts}: a PATCH resurrected or removed a file: ${line}`);
          for (const [rel, version] of committed.get(commit) as Map<string, string>) {
            const file = path.join(storm.config, rel);
            if (!existsSync(file)) continue;
            const found = besidesUrls(readFileSync(file, 'utf8'));
            if (found !== version)
              failures.push(
                `checkout ${checkouts}: a PATCH wrote the old version over the checkout: ${rel} holds "${found}", the commit "${version}"`,
              );
          }
          await new Promise((r) => setTimeout(r, rng.int(0, 250)));
        }
      }
    } finally {
      running = false;
      await Promise.all(clients);
    }
    const counts = [...outcomes].map(([status, n]) => `${n}x${status}`).join(', ');
    console.log(
      `      figures: ${CYCLES} storm cycles (${checkouts} checkouts of ${storm.changed} changed files), ` +
        `PATCH outcomes ${counts}, ${reads} reads, ${failures.length} broken promises`,
    );
    expect(failures, `${failures.length} broken promises:\n${failures.slice(0, 10).join('\n')}`).to.deep.equal([]);

    // The index ends equal to the files on disk, with nothing reported.
    const expected = readFolderNetworks(storm.config);
    expect(expected.invalid).to.deep.equal([]);
    const deadline = Date.now() + 15_000;
    let listed = await listAll(server.url);
    while (!sameNetworks(listed, expected.networks) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      listed = await listAll(server.url);
    }
    expect(describeDiff(listed, expected.networks)).to.deep.equal([]);
    const ready = JSON.parse((await call(server.url, 'GET', '/api/v1/ready')).text) as {
      ready: boolean;
      components: { index: { invalid_files: unknown[] } };
    };
    expect(ready.ready).to.equal(true);
    expect(ready.components.index.invalid_files, 'readiness reports problems the folder does not have').to.deep.equal(
      [],
    );
  });
});

function sameNetworks(listed: Map<string, string>, disk: Map<string, { json: string }>): boolean {
  return describeDiff(listed, disk).length === 0;
}

function describeDiff(listed: Map<string, string>, disk: Map<string, { json: string }>): string[] {
  const out: string[] = [];
  for (const [id, network] of disk)
    if (listed.get(id) !== network.json) out.push(`${id}: served ${listed.get(id) ?? 'nothing'}, disk ${network.json}`);
  for (const id of listed.keys()) if (!disk.has(id)) out.push(`${id}: served but not on disk`);
  return out.slice(0, 20);
}
