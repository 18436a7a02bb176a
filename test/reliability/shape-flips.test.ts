/**
 * Folder shape flips during PATCH bursts (issue 41): while clients PATCH and read through one built
 * server, the folder's shape flips again and again between the good one and the odd ones of
 * folder-shapes.test.ts (a family folder turned into a file, a file into a folder, a FIFO, a link
 * that leads nowhere or out of the folder, a file where `.tmp/` should be). The process never dies,
 * never answers 500, readiness stays 200 and never names a path outside the folder, no byte is
 * written outside it, and once the good shape is back the served set equals a fresh parse.
 * SHAPE_FLIPS (default 20; `make soak`: 500) and SHAPE_SEED change the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { networkYaml, removeDir, writeFile } from '../helpers/fixtures.js';
import { freshScan } from '../helpers/read-disk.js';
import { fingerprintTree } from '../helpers/reliability-disk.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { awaitReadiness, call, keepAlive, patchUrls } from '../helpers/reliability-http.js';
import { envInt, seededRng } from '../helpers/reliability-rng.js';

const FLIPS = envInt('SHAPE_FLIPS', 20);
const SEED = envInt('SHAPE_SEED', 41);
const IDS = ['evm:sepolia', 'evm:mainnet', 'solana:devnet', 'stellar:testnet'];

/** An odd shape: how to make it from the good one, and how to put the good one back. */
type Flip = (config: string, outside: string) => () => void;

const moveAside = (p: string): string => {
  const aside = `${path.dirname(p)}/.aside-${path.basename(p)}`;
  renameSync(p, aside);
  return aside;
};
const flips: Flip[] = [
  (c) => {
    const aside = moveAside(path.join(c, 'evm'));
    writeFileSync(path.join(c, 'evm'), 'a file now\n');
    return () => {
      rmSync(path.join(c, 'evm'));
      renameSync(aside, path.join(c, 'evm'));
    };
  },
  (c) => {
    const file = path.join(c, 'evm/sepolia.yaml');
    const aside = moveAside(file);
    mkdirSync(file);
    return () => {
      rmSync(file, { recursive: true });
      renameSync(aside, file);
    };
  },
  (c) => {
    const file = path.join(c, 'evm/mainnet.yaml');
    const aside = moveAside(file);
    execFileSync('mkfifo', [file]);
    return () => {
      rmSync(file);
      renameSync(aside, file);
    };
  },
  (c) => {
    const file = path.join(c, 'solana/devnet.yaml');
    const aside = moveAside(file);
    symlinkSync('nowhere.yaml', file);
    return () => {
      rmSync(file);
      renameSync(aside, file);
    };
  },
  (c, outside) => {
    const family = path.join(c, 'stellar');
    const aside = moveAside(family);
    symlinkSync(outside, family);
    return () => {
      rmSync(family);
      renameSync(aside, family);
    };
  },
  (c) => {
    const tmp = path.join(c, '.tmp');
    // A PATCH may make `.tmp/` again between the removal and the write: remove it again.
    for (let tries = 0; ; tries++) {
      rmSync(tmp, { recursive: true, force: true });
      try {
        writeFileSync(tmp, 'not a folder\n', { flag: 'wx' });
        break;
      } catch (err) {
        if (tries > 100) throw err;
      }
    }
    return () => rmSync(tmp, { recursive: true, force: true });
  },
];

describe('reliability: folder shape flips during PATCH bursts', function () {
  this.timeout(Math.max(60_000, FLIPS * 2_000));
  let base: string;
  let server: Server | undefined;

  afterEach(async () => {
    await server?.kill('SIGTERM');
    removeDir(base);
  });

  it(`${FLIPS} flips: no crash, no 500, nothing outside named or written, the good shape served again`, async () => {
    base = mkdtempSync(path.join(tmpdir(), 'netcfg-flips-'));
    const config = path.join(base, 'config');
    const outside = path.join(base, 'outside');
    for (const id of IDS)
      writeFile(
        config,
        `${id.replace(':', '/')}.yaml`,
        networkYaml({ rpc_urls: [`https://${id.replace(':', '-')}.example.com`] }),
      );
    writeFile(outside, 'secret.yaml', networkYaml({ rpc_urls: ['https://secret.outside.example.com'] }));
    const outsideBefore = fingerprintTree(outside);
    server = await startServer({ CONFIG_DIR: config });
    const s = server;
    const rng = seededRng(SEED);
    const agent = keepAlive();
    const statuses = new Map<number, number>();
    let stop = false;
    let n = 0;
    const client = async (): Promise<void> => {
      while (!stop) {
        const id = rng.pick(IDS);
        const reply = rng.chance(0.7)
          ? await patchUrls(s.url, id, [`https://w${n++}.example.com`], { agent })
          : await call(s.url, 'GET', `/api/v1/networks/${id}`, { agent });
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        expect(reply.status, `${reply.status}: ${reply.text.slice(0, 300)}`).to.not.equal(500);
      }
    };
    const clients = [client(), client(), client()];
    const clientsDone = Promise.allSettled(clients); // handled from the start: a failing client is reported below
    try {
      for (let i = 0; i < FLIPS; i++) {
        const flip = rng.pick(flips);
        const restore = flip(config, outside);
        const report = await awaitReadiness<{ components: { index: { invalid_files: Array<{ path: string }> } } }>(
          s.url,
          () => true,
        );
        const named = report.components.index.invalid_files.map((f) => f.path);
        expect(
          named.filter((p) => p.includes('secret') || p.includes('..')),
          'what a link out holds is never named',
        ).to.deep.equal([]);
        await new Promise((r) => setTimeout(r, rng.int(20, 100))); // let PATCHes land on the odd shape
        restore();
      }
    } finally {
      stop = true;
      await clientsDone;
    }
    await Promise.all(clients);
    expect(s.process.exitCode, 'the server process is alive').to.equal(null);
    expect(statuses.get(200) ?? 0, 'PATCHes and reads went through between flips').to.be.greaterThan(0);
    const expected = freshScan(config);
    const settled = await awaitReadiness<{ components: { index: { networks: number; invalid_files: unknown[] } } }>(
      s.url,
      (r) =>
        r.components.index.networks === expected.etags.size &&
        r.components.index.invalid_files.length === expected.invalid.length,
      10_000,
    );
    expect(settled.components.index.invalid_files).to.deep.equal(expected.invalid);
    for (const [id, etag] of expected.etags) {
      const reply = await call(s.url, 'GET', `/api/v1/networks/${id}`);
      expect(reply.headers.etag, `${id}: ${reply.status} (readiness: ${JSON.stringify(settled.components)})`).to.equal(
        etag,
      );
    }
    expect(fingerprintTree(outside), 'no byte written outside the folder').to.deep.equal(outsideBefore);
  });
});
