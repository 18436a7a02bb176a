/**
 * kill -9 loop: a built server takes a stream of PATCHes to several networks and is killed with
 * SIGKILL at a random moment, again and again, and restarted on the same folder each time. After
 * every kill each file must be valid and hold exactly the last acknowledged rpc_urls or the ones
 * that were in flight (never a mix, never empty, never older than a 200); the restarted server
 * must get ready by itself, serve what is on disk, never serve or report a temp file, and take
 * over the lock the dead process left (its first PATCH succeeds).
 * KILL_LOOPS (default 50) and KILL_SEED change the run. LOCK_STALE_MS=2000 is the smallest stale
 * period proper-lockfile accepts, so most restarts wait ~1.4 s for the dead writer's lock; so that
 * those waits overlap, the kills are shared by KILL_LANES (default 4) folders killed side by side,
 * each restarted on its own folder every time (KILL_LANES=1 runs them all in one folder).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parseDocument } from 'yaml';
import { parseNetworkFile } from '../../src/store/validation/network-file.js';
import { parseNetworkId } from '../../src/store/files/layout.js';
import { OPEN_POLICY } from '../../src/store/validation/url-rules.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { listAll, tempFiles } from '../helpers/reliability-disk.js';
import { call, keepAlive, patchUrls } from '../helpers/reliability-http.js';
import { envInt, seededRng } from '../helpers/reliability-rng.js';

type Urls = Array<{ url: string; weight: number }>;

interface Tracked {
  id: string;
  rel: string;
  /** What the last 200 (or the last check of the disk) says the file holds. */
  acked: Urls;
  /** The rpc_urls of the PATCH sent and not yet answered. */
  inFlight: Urls | null;
}

const KILLS = envInt('KILL_LOOPS', 50);
const LANES = Math.max(1, envInt('KILL_LANES', 4));
const SEED = envInt('KILL_SEED', 20240611);
const IDS = ['evm:alpha', 'evm:beta', 'solana:gamma', 'stellar:delta'];

describe('reliability: kill -9 loop', function () {
  this.timeout(Math.max(180_000, (KILLS / LANES) * 5000));
  const roots: string[] = [];
  after(() => roots.forEach(removeDir));

  it(`survives ${KILLS} SIGKILLs during PATCH streams without losing or tearing a file`, async () => {
    const lanes = Array.from({ length: LANES }, (_, lane) => {
      const root = makeConfigDir(
        Object.fromEntries(
          IDS.map((id) => [
            relOf(id),
            networkYaml({ rpc_urls: [{ url: `https://start.${id.replace(':', '-')}.example.com`, weight: 50 }] }),
          ]),
        ),
      );
      roots.push(root);
      const kills = Math.floor(KILLS / LANES) + (lane < KILLS % LANES ? 1 : 0);
      return killLoop(root, kills, SEED + lane);
    });
    const figures = await Promise.all(lanes);
    const acknowledged = figures.reduce((n, f) => n + f.acknowledged, 0);
    const maxTemps = Math.max(...figures.map((f) => f.maxTemps));
    console.log(
      `      figures: ${KILLS} kills survived in ${LANES} folder(s) (seed ${SEED}), ${acknowledged} ` +
        `PATCHes acknowledged, at most ${maxTemps} temp files left in a folder, none served`,
    );
    expect(acknowledged).to.be.greaterThan(KILLS);
  });
});

/** Kills a server on `root` `kills` times; throws at the first broken promise. */
async function killLoop(
  root: string,
  kills: number,
  seed: number,
): Promise<{ acknowledged: number; maxTemps: number }> {
  const rng = seededRng(seed);
  const tracked: Tracked[] = IDS.map((id) => ({
    id,
    rel: relOf(id),
    acked: readUrls(root, relOf(id)),
    inFlight: null,
  }));
  const modes = new Map(tracked.map((t) => [t.id, statSync(path.join(root, t.rel)).mode]));
  const failures: string[] = [];
  let seq = 0;
  let acknowledged = 0;
  let maxTemps = 0;
  const nextUrls = (t: Tracked, kill: number): Urls =>
    Array.from({ length: rng.int(1, 4) }, (_, i) => ({
      url: `https://k${kill}-s${++seq}-${i}.${t.id.replace(':', '-')}.example.com/rpc`,
      weight: rng.int(1, 100),
    }));

  for (let kill = 1; kill <= kills; kill++) {
    const server = await startServer({ CONFIG_DIR: root, LOCK_STALE_MS: '2000' });
    const agent = keepAlive();
    try {
      await expectServesDisk(server, tracked);
      // The first PATCH after a restart: the dead process most likely left this network's lock.
      const first = rng.pick(tracked);
      const firstUrls = nextUrls(first, kill);
      first.inFlight = firstUrls;
      const reply = await patchUrls(server.url, first.id, firstUrls, { agent });
      expect(reply.status, `first PATCH after restart ${kill}: ${reply.text}`).to.equal(200);
      first.acked = firstUrls;
      first.inFlight = null;
      acknowledged++;

      const streams = tracked.map(async (t) => {
        for (;;) {
          const urls = nextUrls(t, kill);
          t.inFlight = urls;
          let answer;
          try {
            answer = await patchUrls(server.url, t.id, urls, { agent });
          } catch {
            return; // the connection died with the server: this PATCH is in flight
          }
          if (answer.status !== 200) {
            failures.push(`kill ${kill}: PATCH ${t.id} answered ${answer.status} ${answer.text}`);
            t.inFlight = null;
            return;
          }
          t.acked = urls;
          t.inFlight = null;
          acknowledged++;
        }
      });
      await new Promise((r) => setTimeout(r, rng.int(0, 300)));
      await server.kill('SIGKILL');
      await Promise.all(streams);
    } finally {
      agent.destroy();
      await server.kill('SIGKILL');
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);

    for (const t of tracked) {
      const file = path.join(root, t.rel);
      const text = readFileSync(file, 'utf8');
      const id = parseNetworkId(t.id);
      if (!id) throw new Error(`bad id ${t.id}`);
      const outcome = parseNetworkFile(text, id, t.rel, OPEN_POLICY);
      expect(outcome.ok, `after kill ${kill}, ${t.rel} is not a valid network:\n${text}`).to.equal(true);
      const urls = readUrls(root, t.rel);
      const allowed = [t.acked, ...(t.inFlight ? [t.inFlight] : [])];
      expect(
        allowed.some((a) => JSON.stringify(a) === JSON.stringify(urls)),
        `after kill ${kill}, ${t.rel} holds ${JSON.stringify(urls)}, expected one of ${JSON.stringify(allowed)}`,
      ).to.equal(true);
      // Only rpc_urls changes: the comment and the other fields stay as they were.
      expect(text.startsWith('# test network\n'), `${t.rel} lost its comment`).to.equal(true);
      expect(parseDocument(text).toJS()).to.include({ chain_id: 11155111, is_testnet: true });
      expect(statSync(file).mode, `${t.rel} mode`).to.equal(modes.get(t.id));
      t.acked = urls;
      t.inFlight = null;
    }
    maxTemps = Math.max(maxTemps, tempFiles(root).length);
  }

  // One last restart on what the last kill left: ready, the same networks, nothing else served.
  const last = await startServer({ CONFIG_DIR: root, LOCK_STALE_MS: '2000' });
  try {
    await expectServesDisk(last, tracked);
    const reply = await patchUrls(last.url, IDS[0] as string, [{ url: 'https://after.example.com', weight: 1 }]);
    expect(reply.status, reply.text).to.equal(200);
  } finally {
    await last.kill('SIGTERM');
  }
  return { acknowledged, maxTemps };
}

function relOf(id: string): string {
  const [family, name] = id.split(':');
  return `${family}/${name}.yaml`;
}

function readUrls(root: string, rel: string): Urls {
  const data = parseDocument(readFileSync(path.join(root, rel), 'utf8')).toJS() as { rpc_urls: Urls };
  return data.rpc_urls;
}

/** The restarted server lists exactly the tracked networks, each as on disk, and reports no problem. */
async function expectServesDisk(server: Server, tracked: Tracked[]): Promise<void> {
  const listed = await listAll(server.url);
  expect([...listed.keys()].sort()).to.deep.equal(tracked.map((t) => t.id).sort());
  for (const t of tracked) {
    const network = JSON.parse(listed.get(t.id) as string) as { rpc_urls: Urls };
    expect(network.rpc_urls, `${t.id} as served after restart`).to.deep.equal(t.acked);
  }
  const ready = JSON.parse((await call(server.url, 'GET', '/api/v1/ready')).text) as {
    components: { index: { invalid_files: unknown[] } };
  };
  expect(ready.components.index.invalid_files, 'temp files or torn files reported as problems').to.deep.equal([]);
}
