/**
 * Hostile files against a built server on a loopback port: what anyone can merge through a pull
 * request, or plant with write access to the volume (FIFOs, sockets, devices, links out of the
 * folder, to /dev/zero, to system files, in loops, alias loops, shared anchors, oversized files).
 * For each: the PATCH's status and code, health answered within a second afterwards, nothing
 * outside the folder changed, the file itself unchanged, and the server's memory not grown.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { networkYaml, removeDir, writeFile } from '../helpers/fixtures.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { awaitReadiness, call } from '../helpers/reliability-http.js';

const CANARY = 'canary-outside.example.com';
const BODY = JSON.stringify({ rpc_urls: ['https://patched.example.com'] });
const ALIAS_LOOP = 'rpc_urls: ["https://a.example"]\nx: &x\n  y: *x\n';
/** Growth of the server's resident memory a refused PATCH may cause (the /dev/zero read grew it past 2 GB in 3 s). */
const RSS_SLACK_KB = 64 * 1024;

interface Folders {
  config: string;
  outside: string;
}

interface Case {
  name: string;
  id: string;
  /** Puts the hostile thing at the network's path; may return a cleanup (a listening socket). */
  plant(f: Folders): (() => void) | void;
  status: number;
  code?: string;
  rootOnly?: boolean;
  /** A valid file the PATCH cannot edit safely stays served as it is. */
  served?: boolean;
}

const CASES: Case[] = [
  {
    name: 'a symbolic link to /dev/zero',
    id: 'evm:zero',
    plant: (f) => symlinkSync('/dev/zero', path.join(f.config, 'evm/zero.yaml')),
    status: 404,
    code: 'NETWORK_NOT_FOUND',
  },
  {
    name: 'a FIFO',
    id: 'evm:fifo',
    plant: (f) => void execFileSync('mkfifo', [path.join(f.config, 'evm/fifo.yaml')]),
    status: 404,
    code: 'NETWORK_NOT_FOUND',
  },
  {
    name: 'a unix socket',
    id: 'evm:sock',
    plant: (f) => {
      const server = net.createServer().listen(path.join(f.config, 'evm/sock.yaml'));
      return () => server.close();
    },
    status: 404,
    code: 'NETWORK_NOT_FOUND',
  },
  {
    name: 'a character device (mknod)',
    id: 'evm:dev',
    plant: (f) => void execFileSync('mknod', [path.join(f.config, 'evm/dev.yaml'), 'c', '1', '5']),
    status: 404,
    code: 'NETWORK_NOT_FOUND',
    rootOnly: true,
  },
  {
    name: 'a family folder linked to a folder outside',
    id: 'outfam:o2',
    plant: (f) => symlinkSync(path.join(f.outside, 'fam'), path.join(f.config, 'outfam')),
    status: 404,
    code: 'NETWORK_NOT_FOUND',
  },
  {
    name: 'a file linked to a file outside',
    id: 'evm:out',
    plant: (f) => symlinkSync(path.join(f.outside, 'secret.yaml'), path.join(f.config, 'evm/out.yaml')),
    status: 404,
    code: 'NETWORK_NOT_FOUND',
  },
  {
    name: 'a link to a system file',
    id: 'evm:passwd',
    plant: (f) => symlinkSync('/etc/passwd', path.join(f.config, 'evm/passwd.yaml')),
    status: 404,
    code: 'NETWORK_NOT_FOUND',
  },
  {
    name: 'a directory named like a network',
    id: 'evm:dir',
    plant: (f) => mkdirSync(path.join(f.config, 'evm/dir.yaml')),
    status: 404,
    code: 'NETWORK_NOT_FOUND',
  },
  {
    name: 'a dangling link',
    id: 'evm:dangling',
    plant: (f) => symlinkSync(path.join(f.config, 'evm/none.yaml'), path.join(f.config, 'evm/dangling.yaml')),
    status: 404,
    code: 'NETWORK_NOT_FOUND',
  },
  {
    name: 'two links that point at each other',
    id: 'evm:loop-a',
    plant: (f) => {
      symlinkSync('loop-b.yaml', path.join(f.config, 'evm/loop-a.yaml'));
      symlinkSync('loop-a.yaml', path.join(f.config, 'evm/loop-b.yaml'));
    },
    status: 404,
    code: 'NETWORK_NOT_FOUND',
  },
  {
    name: 'a file without rpc_urls',
    id: 'evm:no-urls',
    plant: (f) => writeFile(f.config, 'evm/no-urls.yaml', '# not yet\nchain_id: 1\n'),
    status: 409,
    code: 'FILE_INVALID',
  },
  {
    name: 'an alias loop',
    id: 'evm:cycle',
    plant: (f) => writeFile(f.config, 'evm/cycle.yaml', ALIAS_LOOP),
    status: 409,
    code: 'FILE_INVALID',
  },
  {
    name: 'a file whose rpc_urls carries an anchor another field uses',
    id: 'evm:shared',
    plant: (f) => writeFile(f.config, 'evm/shared.yaml', 'rpc_urls: &u\n  - https://a.example.com\nbackup: *u\n'),
    status: 409,
    code: 'FILE_INVALID',
    served: true,
  },
  {
    name: 'a 2 MiB file',
    id: 'evm:huge',
    plant: (f) =>
      writeFile(f.config, 'evm/huge.yaml', `rpc_urls: [https://a.example.com]\nx: "${'x'.repeat(2 << 20)}"\n`),
    status: 409,
    code: 'FILE_INVALID',
  },
];

/**
 * Every entry under `dir`, as type, mode and content hash (links by target): what "unchanged"
 * compares. netcfg's own dot-folders (`.locks/`, `.tmp/`) are left out.
 */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      if (name.startsWith('.')) continue;
      const p = path.join(d, name);
      const st = lstatSync(p);
      const rel = path.relative(dir, p);
      if (st.isSymbolicLink()) out[rel] = `link ${readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[rel] = `dir ${st.mode}`;
        walk(p);
      } else if (st.isFile())
        out[rel] = `file ${st.mode} ${st.mtimeMs} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`;
      else out[rel] = `special ${st.mode} ${st.ino}`;
    }
  };
  walk(dir);
  return out;
}

function rssKb(server: Server): number {
  const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
}

async function expectHealthWithinASecond(server: Server): Promise<void> {
  const reply = await call(server.url, 'GET', '/api/v1/health', { timeoutMs: 1000 });
  expect(reply.status).to.equal(200);
  expect(server.process.exitCode, 'the server process exited').to.equal(null);
}

interface Ready {
  status: string;
  components: { index: { invalid_files: Array<{ path: string; line: number; column: number; error: string }> } };
}

const awaitReady = (server: Server, done: (r: Ready) => boolean): Promise<Ready> =>
  awaitReadiness<Ready>(server.url, done, 10_000);

describe('reliability: hostile files', function () {
  this.timeout(60_000);
  let base: string;
  let folders: Folders;
  let server: Server | undefined;

  beforeEach(() => {
    base = mkdtempSync(path.join(tmpdir(), 'netcfg-hostile-'));
    folders = { config: path.join(base, 'config'), outside: path.join(base, 'outside') };
    writeFile(folders.config, 'evm/sepolia.yaml', networkYaml());
    writeFile(folders.outside, 'secret.yaml', networkYaml({ rpc_urls: [`https://${CANARY}/secret`] }));
    writeFile(folders.outside, 'fam/o2.yaml', networkYaml({ rpc_urls: [`https://${CANARY}/fam`] }));
  });
  afterEach(async () => {
    await server?.kill('SIGTERM');
    server = undefined;
    removeDir(base);
  });

  for (const c of CASES) {
    it(`PATCH on ${c.name} -> ${c.status} ${c.code}; health within 1 s, nothing outside changed, memory flat`, async function () {
      if (c.rootOnly && process.getuid?.() !== 0) this.skip();
      const cleanup = c.plant(folders);
      try {
        server = await startServer({ CONFIG_DIR: folders.config });
        const outsideBefore = snapshot(folders.outside);
        const insideBefore = snapshot(folders.config);
        const passwd = readFileSync('/etc/passwd');
        const rssBefore = rssKb(server);
        const reply = await call(server.url, 'PATCH', `/api/v1/networks/${c.id}`, { body: BODY, timeoutMs: 10_000 });
        expect(reply.status, reply.text).to.equal(c.status);
        const envelope = JSON.parse(reply.text) as { success: boolean; code: string; error: string };
        expect(envelope).to.include({ success: false, code: c.code });
        expect(envelope.error).to.not.include(CANARY);
        await expectHealthWithinASecond(server);
        expect(snapshot(folders.outside), 'outside the config folder').to.deep.equal(outsideBefore);
        expect(snapshot(folders.config), 'inside the config folder').to.deep.equal(insideBefore);
        expect(readFileSync('/etc/passwd').equals(passwd)).to.equal(true);
        expect(rssKb(server) - rssBefore, 'RSS growth in KiB').to.be.below(RSS_SLACK_KB);
        expect((await call(server.url, 'GET', `/api/v1/networks/${c.id}`)).status, 'served as before').to.equal(
          c.served ? 200 : 404,
        );
      } finally {
        cleanup?.();
      }
    });
  }

  it('a link inside the folder is written through: it stays a link, its target gets the change, both names serve it', async () => {
    writeFile(folders.config, 'evm/mainnet.yaml', networkYaml({ rpc_urls: ['https://eth.example.com'] }));
    symlinkSync('mainnet.yaml', path.join(folders.config, 'evm/eth.yaml'));
    server = await startServer({ CONFIG_DIR: folders.config });
    const outsideBefore = snapshot(folders.outside);
    const reply = await call(server.url, 'PATCH', '/api/v1/networks/evm:eth', { body: BODY });
    expect(reply.status, reply.text).to.equal(200);
    expect(lstatSync(path.join(folders.config, 'evm/eth.yaml')).isSymbolicLink(), 'still a link').to.equal(true);
    expect(readlinkSync(path.join(folders.config, 'evm/eth.yaml'))).to.equal('mainnet.yaml');
    const target = readFileSync(path.join(folders.config, 'evm/mainnet.yaml'), 'utf8');
    expect(target).to.include('https://patched.example.com').and.include('# test network');
    for (const id of ['evm:eth', 'evm:mainnet']) {
      const deadline = Date.now() + 5000;
      let text = '';
      while (!text.includes('patched.example.com') && Date.now() < deadline)
        text = (await call(server.url, 'GET', `/api/v1/networks/${id}`)).text;
      expect(text, id).to.include('https://patched.example.com');
    }
    expect(snapshot(folders.outside)).to.deep.equal(outsideBefore);
  });

  describe('an alias loop (a 3-line file anyone can merge)', () => {
    const reported = (r: Ready): boolean =>
      r.components.index.invalid_files.some((f) => f.path === 'evm/cycle.yaml' && f.line === 3 && f.column === 6);

    it('present at start: the server gets ready, serves the rest, readiness names it at 3:6', async () => {
      writeFile(folders.config, 'evm/cycle.yaml', ALIAS_LOOP);
      server = await startServer({ CONFIG_DIR: folders.config });
      const report = await awaitReady(server, reported);
      expect(report.components.index.invalid_files).to.deep.include({
        path: 'evm/cycle.yaml',
        line: 3,
        column: 6,
        error: 'alias *x is inside the value it refers to (&x), a loop that JSON cannot hold',
      });
      expect(report.status).to.equal('degraded');
      expect((await call(server.url, 'GET', '/api/v1/networks/evm:sepolia')).status).to.equal(200);
    });

    it('added while running: readiness names it, and it is not served', async () => {
      server = await startServer({ CONFIG_DIR: folders.config });
      writeFile(folders.config, 'evm/cycle.yaml', ALIAS_LOOP);
      expect(reported(await awaitReady(server, reported))).to.equal(true);
      expect((await call(server.url, 'GET', '/api/v1/networks/evm:cycle')).status).to.equal(404);
      await expectHealthWithinASecond(server);
    });

    it('appended to a served file: readiness names it, its last good version is served, a PATCH is 409 and writes nothing', async () => {
      server = await startServer({ CONFIG_DIR: folders.config });
      const file = path.join(folders.config, 'evm/sepolia.yaml');
      appendFileSync(file, 'x: &x\n  y: *x\n');
      const lines = readFileSync(file, 'utf8').split('\n').length - 1;
      const report = await awaitReady(server, (r) =>
        r.components.index.invalid_files.some((f) => f.path === 'evm/sepolia.yaml'),
      );
      expect(report.components.index.invalid_files.find((f) => f.path === 'evm/sepolia.yaml')).to.include({
        line: lines,
        column: 6,
      });
      expect((await call(server.url, 'GET', '/api/v1/networks/evm:sepolia')).text).to.include(
        'https://rpc.example.com',
      );
      const before = readFileSync(file);
      const reply = await call(server.url, 'PATCH', '/api/v1/networks/evm:sepolia', { body: BODY });
      expect(reply.status, reply.text).to.equal(409);
      expect(JSON.parse(reply.text)).to.include({ code: 'FILE_INVALID' });
      expect(readFileSync(file).equals(before)).to.equal(true);
      await expectHealthWithinASecond(server);
    });
  });
});
