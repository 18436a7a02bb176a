/**
 * An entry of the config folder replaced under its own name while the watcher cannot look (RELIABILITY.md F26).
 * chokidar tells what came and went in a folder by name; on a busy host both steps of a replacement can land
 * between two of its listings, and it then neither reported the change nor watched the new folder. That delay is
 * made certain here: the built server is stopped (SIGSTOP) for each replacement and continued after, so its watcher
 * sees only the end state. Each case then changes a file inside the last shape, which must be served.
 */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { networkYaml, removeDir, swapEntries, writeFile } from '../helpers/fixtures.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { call } from '../helpers/reliability-http.js';

/** What is served: each id's first RPC URL (null: 404), and the paths readiness names. */
interface Served {
  urls: Record<string, string | null>;
  named: string[];
}

const yaml = (url: string): string => networkYaml({ rpc_urls: [url] });

interface Case {
  name: string;
  /** `evm` and `.evm-other`, made before the server starts (see below). */
  make(config: string): void;
  /** What is served with `evm` as made (after an even number of swaps) and with the other in its place (odd). */
  served: [Served, Served];
  /** A file changed inside `evm` after the last swap, and what is served then. */
  edit: { apply(config: string): void; served: Served };
}

const SWAPS = 3;

/** A family folder with one network of the given URL per name. */
function family(config: string, rel: string, urls: Record<string, string>): void {
  for (const [name, url] of Object.entries(urls)) writeFile(config, `${rel}/${name}.yaml`, yaml(url));
}

const DEVNET = { 'solana:devnet': 'https://devnet.example.com' };

const cases: Case[] = [
  {
    name: 'a family folder and a file',
    make: (c) => {
      writeFileSync(path.join(c, 'evm'), 'a file first\n');
      family(c, '.evm-other', { mainnet: 'https://mainnet-1.example.com' });
    },
    served: [
      { urls: { 'evm:mainnet': null, ...DEVNET }, named: ['evm'] },
      { urls: { 'evm:mainnet': 'https://mainnet-1.example.com', ...DEVNET }, named: [] },
    ],
    edit: {
      apply: (c) => writeFile(c, 'evm/sepolia.yaml', yaml('https://sepolia-1.example.com')),
      served: { urls: { 'evm:sepolia': 'https://sepolia-1.example.com' }, named: [] },
    },
  },
  {
    name: 'two family folders (a deploy by rename)',
    make: (c) => {
      family(c, 'evm', { mainnet: 'https://mainnet-1.example.com' });
      family(c, '.evm-other', { mainnet: 'https://mainnet-2.example.com' });
    },
    served: [
      { urls: { 'evm:mainnet': 'https://mainnet-1.example.com', ...DEVNET }, named: [] },
      { urls: { 'evm:mainnet': 'https://mainnet-2.example.com', ...DEVNET }, named: [] },
    ],
    edit: {
      apply: (c) => writeFile(c, 'evm/mainnet.yaml', yaml('https://mainnet-3.example.com')),
      served: { urls: { 'evm:mainnet': 'https://mainnet-3.example.com' }, named: [] },
    },
  },
  {
    name: 'two family links to folders inside (ln -sfn)',
    make: (c) => {
      family(c, 'evm-v1', { mainnet: 'https://mainnet-1.example.com' });
      family(c, 'evm-v2', { mainnet: 'https://mainnet-2.example.com' });
      symlinkSync('evm-v1', path.join(c, 'evm'));
      symlinkSync('evm-v2', path.join(c, '.evm-other'));
    },
    served: [
      { urls: { 'evm:mainnet': 'https://mainnet-1.example.com', ...DEVNET }, named: [] },
      { urls: { 'evm:mainnet': 'https://mainnet-2.example.com', ...DEVNET }, named: [] },
    ],
    edit: {
      apply: (c) => writeFile(c, 'evm-v2/mainnet.yaml', yaml('https://mainnet-3.example.com')),
      served: { urls: { 'evm:mainnet': 'https://mainnet-3.example.com' }, named: [] },
    },
  },
];

describe('reliability: an entry of the folder replaced under its name (built server)', function () {
  this.timeout(60_000);
  let base: string;
  let server: Server | undefined;

  beforeEach(() => {
    base = mkdtempSync(path.join(tmpdir(), 'netcfg-replaced-'));
  });
  afterEach(async () => {
    if (server) server.process.kill('SIGCONT');
    await server?.kill('SIGTERM');
    server = undefined;
    removeDir(base);
  });

  /** When `seen` is not `want`: what readiness says of the watcher, for the failure's message. */
  async function watcherIfNot(s: Server, seen: Served, want: Served): Promise<string> {
    if (JSON.stringify(seen) === JSON.stringify(want)) return '';
    const ready = JSON.parse((await call(s.url, 'GET', '/api/v1/ready')).text) as {
      components?: { watcher?: unknown };
    };
    return ` (the watcher: ${JSON.stringify(ready.components?.watcher)})`;
  }

  /** Polls until what is served is `want` (a hang bound, not a speed: the failure this guards against is never). */
  async function until(s: Server, want: Served): Promise<Served> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const seen = await served(s, Object.keys(want.urls));
      if (JSON.stringify(seen) === JSON.stringify(want) || Date.now() > deadline) return seen;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  for (const c of cases) {
    it(`${c.name} trading places ${SWAPS} times: each seen, and a change inside afterwards served`, async () => {
      const config = path.join(base, 'config');
      writeFile(config, 'solana/devnet.yaml', yaml('https://devnet.example.com'));
      c.make(config);
      server = await startServer({ CONFIG_DIR: config });
      expect(await until(server, c.served[0]), 'as made').to.deep.equal(c.served[0]);
      for (let i = 1; i <= SWAPS; i++) {
        server.process.kill('SIGSTOP');
        swapEntries(config, 'evm', '.evm-other'); // `evm` replaced under its name
        server.process.kill('SIGCONT');
        const want = c.served[i % 2] as Served;
        const seen = await until(server, want);
        expect(seen, `after swap ${i}${await watcherIfNot(server, seen, want)}`).to.deep.equal(want);
      }
      c.edit.apply(config);
      expect(await until(server, c.edit.served), 'after a change inside').to.deep.equal(c.edit.served);
    });
  }
});

async function served(s: Server, ids: string[]): Promise<Served> {
  const urls: Record<string, string | null> = {};
  for (const id of ids) {
    const reply = await call(s.url, 'GET', `/api/v1/networks/${id}`);
    urls[id] = reply.status === 200 ? (JSON.parse(reply.text).data.rpc_urls[0]?.url ?? null) : null;
  }
  const ready = JSON.parse((await call(s.url, 'GET', '/api/v1/ready')).text);
  const named = (ready.components.index.invalid_files as Array<{ path: string }>).map((f) => f.path).sort();
  return { urls, named };
}
