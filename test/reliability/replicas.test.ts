/**
 * Three built servers on one folder (replicas on a shared volume). Clients read a counter through
 * one replica and write counter+1 through another with If-Match, the classic lost-update race.
 * Every 200 must have moved the counter by exactly one (no two 200s for the same value, no gap),
 * the file read straight from disk must always be a whole valid network, and every replica must
 * converge on the file's bytes through its watcher within a deadline.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { etagOf, parseNetworkFile } from '../../src/store/validation/network-file.js';
import { networkOf } from '../../src/store/network-record.js';
import { OPEN_POLICY } from '../../src/store/validation/url-rules.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { call, keepAlive } from '../helpers/reliability-http.js';
import { envInt, seededRng } from '../helpers/reliability-rng.js';

const NETWORKS = [
  { id: 'evm:counter-a', family: 'evm', name: 'counter-a', rel: 'evm/counter-a.yaml' },
  { id: 'evm:counter-b', family: 'evm', name: 'counter-b', rel: 'evm/counter-b.yaml' },
];
const CLIENTS = 6;
const TARGET = envInt('REPLICA_WRITES', 30); // successful PATCHes per network
const SEED = envInt('REPLICA_SEED', 7);

function counterOf(rpcUrls: Array<{ url: string }>): number {
  const match = /^https:\/\/n(\d+)\.example\.com\//.exec(rpcUrls[0]?.url ?? '');
  if (!match) throw new Error(`no counter in ${JSON.stringify(rpcUrls)}`);
  return Number(match[1]);
}

describe('reliability: three replicas on one folder', function () {
  this.timeout(90_000);
  let root: string;
  let servers: Server[] = [];

  before(async () => {
    root = makeConfigDir(
      Object.fromEntries(
        NETWORKS.map((n) => [n.rel, networkYaml({ rpc_urls: [{ url: 'https://n0.example.com/start', weight: 100 }] })]),
      ),
    );
    servers = await Promise.all([1, 2, 3].map(() => startServer({ CONFIG_DIR: root })));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGTERM')));
    removeDir(root);
  });

  it('If-Match read-modify-write through all three: no lost update, no torn file, all converge', async () => {
    const won = new Map<string, Array<{ n: number; client: number }>>(NETWORKS.map((n) => [n.id, []]));
    const failures: string[] = [];
    let conflicts = 0;
    let diskReads = 0;
    let running = true;

    // A reader of the raw files: a rename is atomic, so it must never see half a file.
    const torn: string[] = [];
    const reader = (async () => {
      while (running) {
        for (const n of NETWORKS) {
          const text = readFileSync(path.join(root, n.rel), 'utf8');
          diskReads++;
          if (!parseNetworkFile(text, n, n.rel, OPEN_POLICY).ok) torn.push(text);
        }
        await new Promise((r) => setImmediate(r));
      }
    })();

    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      const rng = seededRng(SEED * 100 + client);
      const agent = keepAlive();
      try {
        while (NETWORKS.some((n) => (won.get(n.id) as unknown[]).length < TARGET) && failures.length === 0) {
          const network = rng.pick(NETWORKS);
          const reader = rng.pick(servers);
          const writer = rng.pick(servers);
          const got = await call(reader.url, 'GET', `/api/v1/networks/${network.id}`, { agent });
          if (got.status !== 200) {
            failures.push(`GET ${network.id} on ${reader.url}: ${got.status} ${got.text}`);
            break;
          }
          const n = counterOf((JSON.parse(got.text) as { data: { rpc_urls: Array<{ url: string }> } }).data.rpc_urls);
          const body = JSON.stringify({ rpc_urls: [{ url: `https://n${n + 1}.example.com/c${client}`, weight: 100 }] });
          const put = await call(writer.url, 'PATCH', `/api/v1/networks/${network.id}`, {
            agent,
            body,
            headers: { 'if-match': String(got.headers.etag) },
          });
          if (put.status === 200)
            (won.get(network.id) as Array<{ n: number; client: number }>).push({ n: n + 1, client });
          else if (put.status === 412) conflicts++;
          else failures.push(`PATCH ${network.id} on ${writer.url}: ${put.status} ${put.text}`);
        }
      } finally {
        agent.destroy();
      }
    });
    await Promise.all(clients);
    running = false;
    await reader;

    expect(failures, failures.join('\n')).to.deep.equal([]);
    expect(torn, `a reader saw a torn file:\n${torn[0]}`).to.deep.equal([]);
    for (const network of NETWORKS) {
      const values = (won.get(network.id) as Array<{ n: number }>).map((w) => w.n).sort((a, b) => a - b);
      // Each 200 moved the counter from what its client read: a lost update shows as a repeat.
      expect(values, `${network.id}: counter values acknowledged`).to.deep.equal(values.map((_, i) => i + 1));
      const onDisk = readFileSync(path.join(root, network.rel));
      const data = parseNetworkFile(onDisk.toString('utf8'), network, network.rel, OPEN_POLICY);
      if (!data.ok) throw new Error(`${network.rel} invalid at the end`);
      expect(counterOf(networkOf(data.record).rpc_urls as Array<{ url: string }>), `${network.id} on disk`).to.equal(
        values.length,
      );
      // Every replica's watcher brings its index to the file's bytes.
      for (const server of servers) await expectConverges(server, network.id, etagOf(onDisk));
    }
    const total = [...won.values()].reduce((n, w) => n + w.length, 0);
    console.log(
      `      figures: ${total} PATCHes acknowledged through 3 replicas, ${conflicts} answered 412 and retried, ${diskReads} raw file reads, 0 torn`,
    );
  });
});

async function expectConverges(server: Server, id: string, etag: string, deadlineMs = 5000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const reply = await call(server.url, 'GET', `/api/v1/networks/${id}`);
    if (reply.status === 200 && reply.headers.etag === etag) break;
    // Past the deadline, keep looking a while to tell a slow watcher from one that missed the change.
    if (Date.now() - started > deadlineMs + 15_000) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const took = Date.now() - started;
  if (took <= deadlineMs) return;
  const ready = JSON.parse((await call(server.url, 'GET', '/api/v1/ready')).text) as {
    components: { watcher: unknown };
  };
  const served = (await call(server.url, 'GET', `/api/v1/networks/${id}`)).headers.etag;
  const verdict =
    served === etag
      ? `converged only after ${took} ms`
      : `still serves ${String(served)} after ${took} ms (missed the change)`;
  throw new Error(
    `${server.url}: ${id} ${verdict}; the file is ${etag}; watcher ${JSON.stringify(ready.components.watcher)}`,
  );
}
