/**
 * Bad files merged into the folder of a running server, and the same folder given to a fresh
 * server: a YAML error, a schema error, a .yaml/.yml pair, an empty file, a 5 MB file, a symlink
 * to a file outside the folder, a family folder that is a symlink to outside, a family of 10,000
 * files, and a good network broken in place (the folder symlink has its own test, last). The good networks keep being served (the broken one
 * at its last good version), readiness names every problem, nothing outside is served, and the
 * process stays up.
 */
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { networkYaml, removeDir, writeFile } from '../helpers/fixtures.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { awaitReadiness, call } from '../helpers/reliability-http.js';

const CANARY = 'canary-outside.example.com';
const GOOD = ['evm:sepolia', 'evm:mainnet', 'solana:devnet'];
const BULK = 10_000;
const PROBLEMS = [
  'evm/yaml-error.yaml',
  'evm/schema-error.yaml',
  'evm/dup.yml',
  'evm/empty.yaml',
  'evm/huge.yaml',
  'evm/escape.yaml',
  'evm/victim.yaml',
];

interface Ready {
  ready: boolean;
  status: string;
  components: { index: { networks: number; invalid_files: Array<{ path: string; error: string }> } };
}

function mergeBadFiles(config: string, outside: string): void {
  writeFile(config, 'evm/yaml-error.yaml', 'rpc_urls:\n  - https://a.example.com\n bad: [unclosed\n');
  writeFile(config, 'evm/schema-error.yaml', 'rpc_urls: 42\nchain_id: -1\n');
  writeFile(config, 'evm/dup.yaml', networkYaml({ rpc_urls: ['https://dup-yaml.example.com'] }));
  writeFile(config, 'evm/dup.yml', networkYaml({ rpc_urls: ['https://dup-yml.example.com'] }));
  writeFile(config, 'evm/empty.yaml', '');
  writeFile(
    config,
    'evm/huge.yaml',
    `rpc_urls:\n  - https://huge.example.com\nnotes: "${'x'.repeat(5 * 1024 * 1024)}"\n`,
  );
  symlinkSync(path.join(outside, 'secret.yaml'), path.join(config, 'evm/escape.yaml'));
  for (let i = 0; i < BULK; i++)
    writeFile(config, `bulk/n-${String(i).padStart(5, '0')}.yaml`, `rpc_urls:\n  - https://n${i}.bulk.example.com\n`);
  writeFile(config, 'evm/victim.yaml', 'rpc_urls: [https://victim.example.com\n'); // broken in place
}

const awaitReady = (server: Server, done: (r: Ready) => boolean, deadlineMs?: number): Promise<Ready> =>
  awaitReadiness<Ready>(server.url, done, deadlineMs);

describe('reliability: bad files merged', function () {
  this.timeout(90_000);
  let base: string;
  let config: string;
  let server: Server | undefined;

  before(() => {
    base = mkdtempSync(path.join(tmpdir(), 'netcfg-bad-'));
    config = path.join(base, 'config');
    const outside = path.join(base, 'outside');
    writeFile(outside, 'secret.yaml', networkYaml({ rpc_urls: [`https://${CANARY}/secret`] }));
    writeFile(outside, 'fam/x.yaml', networkYaml({ rpc_urls: [`https://${CANARY}/fam`] }));
    mkdirSync(config);
    writeFile(config, 'evm/sepolia.yaml', networkYaml());
    writeFile(config, 'evm/mainnet.yaml', networkYaml({ rpc_urls: ['https://eth.example.com'] }));
    writeFile(config, 'solana/devnet.yaml', networkYaml({ rpc_urls: ['https://api.devnet.solana.com'] }));
    writeFile(config, 'evm/victim.yaml', networkYaml({ rpc_urls: ['https://victim-good.example.com'] }));
  });
  afterEach(async () => {
    await server?.kill('SIGTERM');
    server = undefined;
  });
  after(() => removeDir(base));

  async function expectServedDespiteProblems(s: Server, victimServed: boolean): Promise<void> {
    const expectedCount = GOOD.length + 1 + BULK + (victimServed ? 1 : 0); // + evm:dup from its .yaml
    const report = await awaitReady(
      s,
      (r) =>
        r.components.index.networks === expectedCount &&
        PROBLEMS.every((p) => r.components.index.invalid_files.some((f) => f.path === p)),
    );
    expect(s.process.exitCode, 'the server process crashed').to.equal(null);
    expect(report.ready).to.equal(true);
    expect(report.status).to.equal('degraded');
    const named = new Set(report.components.index.invalid_files.map((f) => f.path));
    for (const problem of PROBLEMS) expect([...named], `readiness names ${problem}`).to.include(problem);
    for (const f of report.components.index.invalid_files) expect(f.error, f.path).to.be.a('string').and.not.equal('');
    expect(report.components.index.networks).to.equal(expectedCount);

    for (const id of [...GOOD, 'evm:dup', 'bulk:n-00000', `bulk:n-0${BULK - 1}`]) {
      expect((await call(s.url, 'GET', `/api/v1/networks/${id}`)).status, id).to.equal(200);
    }
    expect((await call(s.url, 'GET', '/api/v1/networks/evm:dup')).text).to.include('dup-yaml.example.com');
    const victim = await call(s.url, 'GET', '/api/v1/networks/evm:victim');
    if (victimServed)
      expect(victim.text, 'a broken file keeps its last good version').to.include('victim-good.example.com');
    else expect(victim.status).to.equal(404);
    for (const id of ['evm:yaml-error', 'evm:schema-error', 'evm:empty', 'evm:huge', 'evm:escape']) {
      const reply = await call(s.url, 'GET', `/api/v1/networks/${id}`);
      expect(reply.status, `${id} must not be served`).to.equal(404);
    }
    const first = await call(s.url, 'GET', '/api/v1/networks?per_page=100');
    expect(first.text).not.to.include(CANARY);
  }

  it('merged while running: the rest is served, readiness names each problem, the process stays up', async () => {
    server = await startServer({ CONFIG_DIR: config });
    mergeBadFiles(config, path.join(base, 'outside'));
    await expectServedDespiteProblems(server, true);
  });

  it('present at start: a fresh server gets ready and serves the rest', async () => {
    server = await startServer({ CONFIG_DIR: config }, 60_000);
    await expectServedDespiteProblems(server, false);
  });

  // Issue 41: the folder itself is reported, never what it holds (readiness is open: names from /etc leaked).
  it('a family folder that is a symlink to outside the config folder is neither served nor silent, and what it holds is never named', async () => {
    server = await startServer({ CONFIG_DIR: config }, 60_000);
    symlinkSync(path.join(base, 'outside', 'fam'), path.join(config, 'linked'));
    const seen = async (s: Server): Promise<void> => {
      const report = await awaitReady(
        s,
        (r) => r.components.index.invalid_files.some((f) => f.path === 'linked'),
        45_000, // a deadline for a watcher that never reports it: under a second suite's load it took over 10 s
      );
      const reply = await call(s.url, 'GET', '/api/v1/networks/linked:x');
      expect(reply.text).not.to.include(CANARY);
      expect(reply.status, 'linked/x.yaml lies outside the config folder').to.equal(404);
      const paths = report.components.index.invalid_files.map((f) => f.path);
      expect(paths).to.include('linked');
      expect(paths.filter((p) => p.startsWith('linked/'))).to.deep.equal([]);
    };
    await seen(server); // merged while running
    await server.kill('SIGTERM');
    server = await startServer({ CONFIG_DIR: config }, 60_000);
    await seen(server); // present at start
  });
});
