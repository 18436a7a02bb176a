/**
 * API_TOKENS_GRACE_MS on the built server: a tokens file deleted, or swapped for a link to a file
 * that does not parse, keeps its tokens for the grace (readiness says until when), then every named
 * token is refused while API_KEY keeps working (readiness says since when), and the file restored
 * brings them back. Each wait is a poll with a deadline, no sleep.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';

const sha = (token: string): string => createHash('sha256').update(token).digest('hex');
const READER = 'ncfg_grace-reader-0123456789abcdef0123456789';
const API_KEY = 'g'.repeat(40);
const GRACE_MS = 1500;
const GOOD = `tokens:\n  - name: relayer-eu\n    sha256: "${sha(READER)}"\n    role: read\n`;

interface Access {
  status: string;
  tokens: number;
  problem: string | null;
  grace_ends_at?: string;
  refusing_named_tokens_since?: string;
}

describe('API_TOKENS_GRACE_MS on the built server (a tokens file gone is not forever)', function () {
  this.timeout(30_000);
  let root: string;
  let dir: string;
  let file: string;
  let server: ChildServer | null = null;
  const status = async (token: string): Promise<number> => {
    const res = await fetch(`${server?.url}/api/v1/networks`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    return res.status;
  };
  const access = async (): Promise<{ code: number; access: Access }> => {
    const res = await fetch(`${server?.url}/api/v1/ready`, { headers: { authorization: `Bearer ${API_KEY}` } });
    return { code: res.status, access: ((await res.json()) as { components: { access: Access } }).components.access };
  };
  /** Asks `ask` until `test` holds, up to `ms`. */
  async function until<T>(ask: () => Promise<T>, test: (value: T) => boolean, ms: number, what: string): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await ask();
      if (test(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms (last ${JSON.stringify(value)})`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-grace-'));
    file = path.join(dir, 'tokens.yaml');
    writeFileSync(file, GOOD);
    server = await startChild({
      CONFIG_DIR: root,
      API_TOKENS_FILE: file,
      API_KEY,
      API_TOKENS_GRACE_MS: String(GRACE_MS),
    });
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  const CASES: Array<[string, () => void]> = [
    ['deleted', () => unlinkSync(file)],
    [
      'replaced by a link to a file that does not parse',
      () => {
        writeFileSync(
          path.join(dir, 'passwd'),
          'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n',
        );
        unlinkSync(file);
        symlinkSync(path.join(dir, 'passwd'), file);
      },
    ],
  ];
  for (const [what, breakIt] of CASES) {
    it(`the file ${what}: tokens hold for the grace, then named tokens get 401 (API_KEY still 200), and come back with the file`, async () => {
      expect(await status(READER)).to.equal(200);
      const broke = Date.now();
      breakIt();
      const during = await until(access, (r) => r.access.problem !== null, 3000, 'readiness shows the problem');
      expect(during.code).to.equal(200);
      expect(during.access).to.include({ status: 'degraded' });
      expect(during.access.problem).to.match(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
      const endsAt = Date.parse(during.access.grace_ends_at as string);
      expect(endsAt).to.be.within(broke, Date.now() + GRACE_MS);
      if (Date.now() < endsAt - 200) expect(await status(READER), 'the reader within the grace').to.equal(200);

      await until(
        () => status(READER),
        (s) => s === 401,
        GRACE_MS + 3000,
        'the reader refused after the grace',
      );
      expect(Date.now(), 'not refused before the grace ends').to.be.at.least(endsAt);
      expect(await status(API_KEY), 'API_KEY keeps working').to.equal(200);
      const after = await access();
      expect(after.code, 'readiness itself stays 200').to.equal(200);
      expect(after.access).to.include({ status: 'unhealthy', tokens: 1 });
      expect(Date.parse(after.access.refusing_named_tokens_since as string)).to.be.at.least(endsAt);
      expect(after.access).not.to.have.property('grace_ends_at');

      if (what.startsWith('replaced')) unlinkSync(file);
      writeFileSync(file, GOOD);
      await until(
        () => status(READER),
        (s) => s === 200,
        3000,
        'the reader back with the file',
      );
      expect((await access()).access).to.deep.equal({ status: 'healthy', tokens: 2, problem: null });
    });
  }
});
