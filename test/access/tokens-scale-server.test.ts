/**
 * A tokens file of 20,000 entries on the built server: a change (written whole, then renamed in,
 * as a Secret's update is) is taken, and GET /api/v1/health, asked again and again meanwhile, keeps
 * answering: the file is parsed off the event loop, in linear time. Parsed on it, as before, the
 * server stopped answering for tens of seconds; the bound here (10 s) is a hang bound, far above what
 * a loaded shared machine adds (2 s was not) and below that. The figure the issue asks for (250 ms) is docs/access.md's,
 * measured, not a timed test.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';

const ENTRIES = 20_000;
const HEALTH_BOUND_MS = 10_000;
const TAKEN_WITHIN_MS = 20_000;
const sha = (token: string): string => createHash('sha256').update(token).digest('hex');

function fileOf(count: number, extra = ''): string {
  const lines = ['tokens:'];
  for (let i = 0; i < count; i++)
    lines.push(`  - name: client-${i}\n    sha256: "${sha(`ncfg_client-${i}`)}"\n    role: read`);
  return `${lines.join('\n')}\n${extra}`;
}

describe('API_TOKENS_FILE of 20,000 entries on the built server (health answers while it is taken)', function () {
  this.timeout(120_000);
  let root: string;
  let dir: string;
  let server: ChildServer | null = null;

  beforeEach(() => {
    root = makeConfigDir(standardFiles());
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-scale-'));
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * One change of the file while health is asked again and again: how long until the new token
   * works, and the slowest health answer meanwhile (measured from here, so this process's turns count too).
   */
  async function oneChange(
    url: string,
    file: string,
    attempt: number,
  ): Promise<{ takenMs: number; worst: number; asked: number }> {
    const latest = `ncfg_the-latest-client-${attempt}-0123456789abcdef0123456`;
    const changed = fileOf(ENTRIES, `  - name: latest-${attempt}\n    sha256: "${sha(latest)}"\n    role: read\n`);
    let done = false;
    let worst = 0;
    let asked = 0;
    const healthLoop = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await fetch(`${url}/api/v1/health`);
        await res.text();
        worst = Math.max(worst, performance.now() - started);
        asked++;
      }
    })();
    const changedAt = Date.now();
    writeFileSync(`${file}.next`, changed);
    renameSync(`${file}.next`, file);
    let takenMs = -1;
    try {
      while (Date.now() - changedAt <= TAKEN_WITHIN_MS) {
        const res = await fetch(`${url}/api/v1/networks`, { headers: { authorization: `Bearer ${latest}` } });
        await res.arrayBuffer();
        if (res.status === 200) {
          takenMs = Date.now() - changedAt;
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      done = true;
      await healthLoop;
    }
    return { takenMs, worst, asked };
  }

  it(`a change is taken within ${TAKEN_WITHIN_MS / 1000} s and health keeps answering meanwhile (never a wait of ${HEALTH_BOUND_MS} ms)`, async () => {
    const file = path.join(dir, 'tokens.yaml');
    writeFileSync(file, fileOf(ENTRIES));
    server = await startChild({ CONFIG_DIR: root, API_TOKENS_FILE: file }, { deadlineMs: 60_000 });
    const run = await oneChange(server.url, file, 1);
    expect(run.takenMs, `not taken within ${TAKEN_WITHIN_MS} ms`).to.be.within(0, TAKEN_WITHIN_MS);
    expect(run.asked, 'health was asked throughout').to.be.greaterThan(10);
    expect(run.worst, `the slowest health answer: ${JSON.stringify(run)}`).to.be.below(HEALTH_BOUND_MS);
  });
});
