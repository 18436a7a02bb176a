/**
 * Generated hostile YAML (test/helpers/yaml-fuzz.ts) given to a built server: half the files in
 * the folder at start, the other half written while it runs, then every served file overwritten
 * with another. The server stays up and ready, health answers (a hang bound, not a speed), and every file
 * ends either served or listed in readiness with a line and column. FUZZ_FILES sets the count
 * (make soak raises it), FUZZ_SEED the documents.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { networkYaml, removeDir, writeFile } from '../helpers/fixtures.js';
import { startServer, type Server } from '../helpers/reliability-child.js';
import { call } from '../helpers/reliability-http.js';
import { envInt } from '../helpers/reliability-rng.js';
import { hostileYaml } from '../helpers/yaml-fuzz.js';

const FILES = envInt('FUZZ_FILES', 400);
const SEED = envInt('FUZZ_SEED', 31);

interface Ready {
  ready: boolean;
  components: {
    index: { networks: number; invalid_files: Array<{ path: string; line: number; column: number; error: string }> };
  };
}

/** Long enough for a loaded machine, far shorter than a blocked event loop: a hang, not a speed, fails it. */
const ANSWER_MS = 10_000;

const relOf = (i: number): string => `fuzz/f-${String(i).padStart(5, '0')}.yaml`;

async function readiness(server: Server): Promise<Ready> {
  const reply = await call(server.url, 'GET', '/api/v1/ready', { timeoutMs: ANSWER_MS });
  expect(reply.status, reply.text.slice(0, 300)).to.equal(200);
  return JSON.parse(reply.text) as Ready;
}

/** The ids of the fuzz family the server serves, page by page. */
async function servedIds(server: Server): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let page = 1; ; page++) {
    const reply = JSON.parse(
      (await call(server.url, 'GET', `/api/v1/networks?network_type=fuzz&per_page=100&page=${page}`)).text,
    ) as { data: Array<{ id: string }> };
    for (const n of reply.data) ids.add(n.id);
    if (reply.data.length < 100) return ids;
  }
}

/** Polls until every fuzz file is served or reported (up to a deadline); returns a few that are neither. */
async function unaccounted(server: Server, count: number, deadlineMs = 30_000): Promise<string[]> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const report = await readiness(server);
    for (const f of report.components.index.invalid_files) {
      expect(f.line, f.path).to.be.at.least(1);
      expect(f.column, f.path).to.be.at.least(1);
    }
    const reported = new Set(report.components.index.invalid_files.map((f) => f.path));
    const served = await servedIds(server);
    const missing = Array.from({ length: count }, (_, i) => relOf(i)).filter(
      (rel) => !reported.has(rel) && !served.has(`fuzz:${path.basename(rel, '.yaml')}`),
    );
    if (missing.length === 0 || Date.now() > deadline) return missing.slice(0, 5);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('reliability: a server fed generated hostile YAML', function () {
  this.timeout(Math.max(120_000, FILES * 200));
  let config: string;
  let server: Server | undefined;

  beforeEach(() => {
    config = mkdtempSync(path.join(tmpdir(), 'netcfg-yaml-fuzz-'));
    writeFile(config, 'evm/sepolia.yaml', networkYaml());
  });
  afterEach(async () => {
    await server?.kill('SIGTERM');
    server = undefined;
    removeDir(config);
  });

  it(`${FILES} documents at start, while running and over served files: the server stays up, every file served or reported`, async () => {
    const texts = fc.sample(hostileYaml, { numRuns: FILES, seed: SEED });
    const half = Math.floor(FILES / 2);
    texts.slice(0, half).forEach((text, i) => writeFile(config, relOf(i), text));
    server = await startServer({ CONFIG_DIR: config }, 60_000);
    texts.slice(half).forEach((text, i) => writeFileSync(path.join(config, relOf(half + i)), text));
    expect(await unaccounted(server, FILES)).to.deep.equal([]);

    // Overwrite what is served with other hostile text: each keeps its last good version or takes the new one.
    const again = fc.sample(hostileYaml, { numRuns: FILES, seed: SEED + 1 });
    again.forEach((text, i) => writeFileSync(path.join(config, relOf(i)), text));
    expect(await unaccounted(server, FILES)).to.deep.equal([]);
    const health = await call(server.url, 'GET', '/api/v1/health', { timeoutMs: ANSWER_MS });
    expect(health.status).to.equal(200);
    expect(server.process.exitCode, server.stderr()).to.equal(null);
    expect((await call(server.url, 'GET', '/api/v1/networks/evm:sepolia')).status).to.equal(200);
    expect(server.stderr(), 'nothing thrown to stderr').to.not.match(/Error|at .+\(.+:\d+:\d+\)/);
  });
});
