/**
 * Any shape the file system can take under the config folder (a file where a folder was, a folder
 * where a file was, FIFOs, links that dangle, loop or lead out, folders netcfg keeps that became
 * files): the built server survives it while running and at start, serves every other network,
 * names the problem in readiness by a path inside the folder (never what a link out holds), and a
 * PATCH of the network it hits is a clear 4xx or 503, never a 500 (issue 41: a family folder
 * replaced by a file killed the process from a timer).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { awaitReadiness, call, patchUrls } from '../helpers/reliability-http.js';
import { networkYaml, removeDir, standardFiles, writeFile } from '../helpers/fixtures.js';

interface Ready {
  components: { index: { networks: number; invalid_files: Array<{ path: string; error: string }> } };
}

interface Shape {
  name: string;
  apply(config: string, outside: string): void;
  /** Served (and writable, unless `writable` is false) whatever happened. */
  served: string[];
  writable?: boolean;
  /** Not served any more (the disk no longer holds them). */
  gone?: string[];
  /** Paths readiness must name. */
  named: string[];
  /** A PATCH of this network answers this (never 500). */
  patch?: [string, number];
}

const ALL = ['evm:sepolia', 'evm:mainnet', 'solana:devnet'];
const asRoot = process.getuid?.() === 0;

const shapes: Shape[] = [
  {
    name: 'a family folder replaced by a regular file (a checkout of a branch where it is one)',
    apply: (c) => {
      rmSync(path.join(c, 'evm'), { recursive: true });
      writeFileSync(path.join(c, 'evm'), 'a file now\n');
    },
    served: ['solana:devnet'],
    gone: ['evm:sepolia', 'evm:mainnet'],
    named: ['evm'],
    patch: ['evm:sepolia', 404],
  },
  {
    name: 'a network file replaced by a folder',
    apply: (c) => {
      rmSync(path.join(c, 'evm/sepolia.yaml'));
      mkdirSync(path.join(c, 'evm/sepolia.yaml'));
    },
    served: ['evm:mainnet', 'solana:devnet'],
    named: ['evm/sepolia.yaml'],
    patch: ['evm:sepolia', 404],
  },
  {
    name: 'a network file replaced by a FIFO',
    apply: (c) => {
      rmSync(path.join(c, 'evm/sepolia.yaml'));
      execFileSync('mkfifo', [path.join(c, 'evm/sepolia.yaml')]);
    },
    served: ['evm:mainnet', 'solana:devnet'],
    named: ['evm/sepolia.yaml'],
    patch: ['evm:sepolia', 404],
  },
  {
    name: 'a network file replaced by a link that leads nowhere',
    apply: (c) => {
      rmSync(path.join(c, 'evm/sepolia.yaml'));
      symlinkSync('missing.yaml', path.join(c, 'evm/sepolia.yaml'));
    },
    served: ['evm:mainnet', 'solana:devnet'],
    named: ['evm/sepolia.yaml'],
    patch: ['evm:sepolia', 404],
  },
  {
    name: 'a network file replaced by a link to itself',
    apply: (c) => {
      rmSync(path.join(c, 'evm/sepolia.yaml'));
      symlinkSync('sepolia.yaml', path.join(c, 'evm/sepolia.yaml'));
    },
    served: ['evm:mainnet', 'solana:devnet'],
    named: ['evm/sepolia.yaml'],
    patch: ['evm:sepolia', 404],
  },
  {
    name: 'a family folder that is a link out of the config folder (to a folder of secrets)',
    apply: (c, outside) => symlinkSync(outside, path.join(c, 'vic')),
    served: ALL,
    named: ['vic'],
    patch: ['vic:shadow', 404],
  },
  {
    name: "netcfg's temp folder replaced by a file",
    apply: (c) => writeFileSync(path.join(c, '.tmp'), 'not a folder\n'),
    served: ALL,
    writable: false,
    named: [],
    patch: ['evm:sepolia', 503],
  },
  {
    name: "netcfg's lock folder replaced by a file",
    apply: (c) => writeFileSync(path.join(c, '.locks'), 'not a folder\n'),
    served: ALL,
    writable: false,
    named: [],
    patch: ['evm:sepolia', 503],
  },
  ...(asRoot
    ? []
    : [
        {
          name: 'a family folder nobody may read',
          apply: (c: string) => chmodSync(path.join(c, 'evm'), 0),
          served: ['solana:devnet'],
          named: [] as string[],
          patch: ['evm:sepolia', 503] as [string, number],
        },
      ]),
];

describe('reliability: any shape of the folder', function () {
  this.timeout(60_000);
  let base: string;
  let config: string;
  let outside: string;
  let server: Server | undefined;

  beforeEach(() => {
    base = mkdtempSync(path.join(tmpdir(), 'netcfg-shapes-'));
    config = path.join(base, 'config');
    outside = path.join(base, 'outside');
    for (const [rel, text] of Object.entries(standardFiles())) writeFile(config, rel, text);
    for (const name of ['shadow', 'passwd', 'sshd-config'])
      writeFile(outside, `${name}.yaml`, networkYaml({ rpc_urls: [`https://${name}.outside.example.com`] }));
  });
  afterEach(async () => {
    await server?.kill('SIGTERM');
    server = undefined;
    for (const dir of ['evm', '']) chmodSafe(path.join(config, dir));
    removeDir(base);
  });

  /** What must hold with the shape in place: the process up, the rest served, the problem named from inside. */
  async function holds(s: Server, shape: Shape): Promise<void> {
    const settled = (r: Ready): boolean =>
      shape.named.every((p) => r.components.index.invalid_files.some((f) => f.path === p)) &&
      r.components.index.networks <= ALL.length - (shape.gone?.length ?? 0);
    const report = await awaitReadiness<Ready>(s.url, settled, 10_000);
    expect(s.process.exitCode, 'the server process is alive').to.equal(null);
    const named = report.components.index.invalid_files.map((f) => f.path);
    const seen = JSON.stringify(report.components);
    for (const p of shape.named) expect(named, `readiness names the problem (readiness: ${seen})`).to.include(p);
    expect(
      named.filter((p) => p.includes('..') || p.startsWith('vic/')),
      'nothing outside the folder is named',
    ).to.deep.equal([]);
    expect(JSON.stringify(report)).to.not.include('outside.example.com');
    for (const id of shape.served) {
      expect((await call(s.url, 'GET', `/api/v1/networks/${id}`)).status, `${id} served`).to.equal(200);
      const written = await patchUrls(s.url, id, [`https://${id.replace(':', '-')}.written.example.com`]);
      expect(written.status, `PATCH ${id}: ${written.text}`).to.equal(shape.writable === false ? 503 : 200);
    }
    for (const id of shape.gone ?? [])
      expect((await call(s.url, 'GET', `/api/v1/networks/${id}`)).status, `${id} gone`).to.equal(404);
    if (shape.patch) {
      const [id, status] = shape.patch;
      const reply = await patchUrls(s.url, id, ['https://refused.example.com']);
      expect(reply.status, `PATCH ${id}: ${reply.text}`).to.equal(status);
    }
    expect(s.process.exitCode, 'the server process is alive').to.equal(null);
  }

  for (const shape of shapes) {
    it(`${shape.name}: survived while running and at start`, async () => {
      server = await startServer({ CONFIG_DIR: config });
      shape.apply(config, outside);
      await holds(server, shape);
      await server.kill('SIGTERM');
      server = await startServer({ CONFIG_DIR: config });
      await holds(server, shape);
    });
  }
});

function chmodSafe(p: string): void {
  try {
    chmodSync(p, 0o755);
  } catch {
    // not there in this shape
  }
}
