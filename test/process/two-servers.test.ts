/**
 * Two netcfg processes on one config folder (replicas on a shared volume), driven by several
 * clients that each send the ETag they last saw. The cross-process lock and the If-Match check on
 * the bytes on disk must make the successful writes one unbroken chain: no lost update, no fork.
 * Meanwhile a reader keeps reading the file from disk and must never see a torn write.
 * Needs the built server: npx tsc -p tsconfig.build.json.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { expect } from 'chai';
import { parse } from 'yaml';
import { parseNetworkFile } from '../../src/store/validation/network-file.js';
import { OPEN_POLICY } from '../../src/store/validation/url-rules.js';
import type { ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startWriteChild } from '../helpers/write-child.js';
import { leftovers, locksReleased, sha256Etag } from '../helpers/write-support.js';

const TOTAL = 200;
const CLIENTS = 6;
const ID = { id: 'evm:sepolia', family: 'evm', name: 'sepolia' };
const REL = 'evm/sepolia.yaml';

interface Sent {
  n: number;
  server: number;
  ifMatch: string;
  status: number;
  etag: string | null;
}

const bodyOf = (n: number) => ({
  rpc_urls: [`https://rpc-${n}.example.com`, { url: `https://backup-${n}.example.com`, weight: (n % 100) + 1 }],
});

describe('process: two servers writing one folder', function () {
  this.timeout(60_000);
  let root: string;
  let servers: ChildServer[] = [];
  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    const started = await Promise.allSettled([
      startWriteChild({ CONFIG_DIR: root }),
      startWriteChild({ CONFIG_DIR: root }),
    ]);
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const s of started) {
      if (s.status === 'fulfilled') continue;
      // Stop the one that did start: a live child would keep mocha from exiting.
      await Promise.all(servers.map((child) => child.stop()));
      throw s.reason;
    }
  });
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    removeDir(root);
  });

  it(`${TOTAL} PATCHes with If-Match from ${CLIENTS} clients over 2 processes form one chain; the file is never torn`, async () => {
    const file = path.join(root, REL);
    const initial = sha256Etag(readFileSync(file));
    const sent: Sent[] = [];
    let next = 0;

    async function client(k: number): Promise<void> {
      let etag = initial;
      for (let mine = 0; ; mine++) {
        const n = next++;
        if (n >= TOTAL) return;
        const server = (k + mine) % 2;
        const res = await fetch(`${servers[server]!.url}/api/v1/networks/evm:sepolia`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/json', 'If-Match': etag },
          body: JSON.stringify(bodyOf(n)),
        });
        await res.arrayBuffer();
        const record = { n, server, ifMatch: etag, status: res.status, etag: res.headers.get('etag') };
        sent.push(record);
        if (record.etag) etag = record.etag;
        else etag = String((await fetch(`${servers[server]!.url}/api/v1/networks/evm:sepolia`)).headers.get('etag'));
      }
    }

    let writing = true;
    const torn: string[] = [];
    let reads = 0;
    const reader = (async () => {
      while (writing) {
        const text = readFileSync(file, 'utf8');
        reads++;
        const outcome = parseNetworkFile(text, ID, REL, OPEN_POLICY);
        if (!outcome.ok) torn.push(text);
        await tick();
      }
    })();

    await Promise.all(Array.from({ length: CLIENTS }, (_, k) => client(k)));
    writing = false;
    await reader;

    expect(sent).to.have.length(TOTAL);
    expect(torn, `torn reads: ${torn.slice(0, 2).join('\n---\n')}`).to.deep.equal([]);
    expect(reads).to.be.greaterThan(0);
    const others = sent.filter((s) => s.status !== 200);
    expect([...new Set(others.map((s) => s.status))]).to.deep.equal(others.length ? [412] : []);

    // Order the 200s by chaining: each one's If-Match is the ETag the previous one produced.
    const oks = sent.filter((s) => s.status === 200);
    const byIfMatch = new Map(oks.map((s) => [s.ifMatch, s]));
    expect(byIfMatch.size, 'two 200s were sent with the same If-Match: a lost update').to.equal(oks.length);
    const chain: Sent[] = [];
    for (let at = byIfMatch.get(initial); at; at = byIfMatch.get(String(at.etag))) chain.push(at);
    expect(chain.length, 'the 200s do not form one chain from the starting ETag').to.equal(oks.length);
    expect(new Set(oks.map((s) => s.server)).size, 'both servers wrote').to.equal(2);

    const last = chain[chain.length - 1]!;
    const text = readFileSync(file, 'utf8');
    expect(sha256Etag(text)).to.equal(last.etag);
    expect((parse(text) as { rpc_urls: unknown }).rpc_urls).to.deep.equal(bodyOf(last.n).rpc_urls);
    await locksReleased(root); // each lock is let go just after its answer
    expect(leftovers(root)).to.deep.equal([]);

    // Both processes end up serving the last write (the one that did not write learns from its watcher).
    for (const s of servers) await etagServedBy(s, String(last.etag));
  });
});

/** Polls a server's GET until it serves `etag`, up to a deadline (a child process has no event to await). */
async function etagServedBy(server: ChildServer, etag: string, deadlineMs = 5000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let seen: string | null = null;
  while (Date.now() < deadline) {
    seen = (await fetch(`${server.url}/api/v1/networks/evm:sepolia`)).headers.get('etag');
    if (seen === etag) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${server.url} still serves ${seen}, not ${etag}, after ${deadlineMs} ms`);
}
