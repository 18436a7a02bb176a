/**
 * follow/FollowedFile on real files, with the tokens parser in its worker thread: a good change is
 * taken, a Kubernetes-style link swap is seen, and a file gone or not parsing keeps the last good
 * value for the grace, then hands null, then takes the file again once it is good. Each wait is
 * on the follower's own state events, with a deadline.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { FollowedFile } from '../../src/follow/followed-file.js';
import { moduleNear } from '../../src/follow/parse-worker.js';
import type { TokenEntry } from '../../src/access/tokens-file.js';
import { within } from '../helpers/deadline.js';
import { untilState } from '../helpers/until-state.js';

const entry = (name: string, hex: string): string =>
  `  - name: ${name}\n    sha256: "${hex.repeat(64)}"\n    role: read\n`;
const GOOD_A = `tokens:\n${entry('alpha', 'a')}`;
const GOOD_B = `tokens:\n${entry('alpha', 'a')}${entry('bravo', 'b')}`;
const GRACE_MS = 400;

describe('follow/FollowedFile (a settings file followed off the event loop, with a grace)', function () {
  this.timeout(20_000);
  let dir: string;
  let followed: FollowedFile<TokenEntry[]> | null = null;
  let values: Array<string[] | null> = [];

  const follow = (file: string): FollowedFile<TokenEntry[]> => {
    followed = new FollowedFile<TokenEntry[]>({
      file,
      parser: { module: moduleNear(import.meta.url, '../../src/access/tokens-file'), name: 'tokensOfText' },
      graceMs: GRACE_MS,
      onValue: (value) => values.push(value === null ? null : value.map((t) => t.name)),
      log: { info: () => undefined, error: () => undefined },
      what: 'the test file',
    });
    return followed;
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-follow-'));
    values = [];
  });
  afterEach(async () => {
    await followed?.close();
    followed = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the file first in its thread, then takes a good change', async () => {
    const file = path.join(dir, 'tokens.yaml');
    writeFileSync(file, GOOD_A);
    const f = follow(file);
    const first = await f.first();
    expect('value' in first && first.value.map((t) => t.name)).to.deep.equal(['alpha']);
    f.start();
    writeFileSync(file, GOOD_B);
    await within(
      (async () => {
        while (values.length === 0) await new Promise((r) => f.onState(r));
      })(),
      5000,
      'the change taken',
    );
    expect(values).to.deep.equal([['alpha', 'bravo']]);
    expect(f.state()).to.deep.equal({ problem: null, grace_ends_at: null, refusing_since: null });
  });

  it('sees a Kubernetes Secret update: the ..data link swapped to a new folder', async () => {
    const swap = (name: string, text: string): void => {
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, 'tokens.yaml'), text);
      symlinkSync(name, path.join(dir, '..data_tmp'));
      renameSync(path.join(dir, '..data_tmp'), path.join(dir, '..data'));
    };
    swap('..v1', GOOD_A);
    symlinkSync('..data/tokens.yaml', path.join(dir, 'tokens.yaml'));
    const f = follow(path.join(dir, 'tokens.yaml'));
    expect('value' in (await f.first())).to.equal(true);
    f.start();
    swap('..v2', GOOD_B);
    await within(
      (async () => {
        while (values.length === 0) await new Promise((r) => f.onState(r));
      })(),
      5000,
      'the swap seen',
    );
    expect(values).to.deep.equal([['alpha', 'bravo']]);
  });

  const GONE: Array<[string, (file: string) => void]> = [
    ['deleted', (file) => unlinkSync(file)],
    [
      'replaced by a link to a file that is no tokens file',
      (file) => {
        writeFileSync(path.join(dir, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
        unlinkSync(file);
        symlinkSync(path.join(dir, 'passwd'), file);
      },
    ],
    ['rewritten so it does not parse', (file) => writeFileSync(file, 'tokens:\n  - name: [broken\n')],
  ];
  for (const [what, breakIt] of GONE) {
    it(`a file ${what}: the last good value holds for the grace, then null, then the file is taken again once good`, async () => {
      const file = path.join(dir, 'tokens.yaml');
      writeFileSync(file, GOOD_A);
      const f = follow(file);
      expect('value' in (await f.first())).to.equal(true);
      f.start();
      const broke = Date.now();
      breakIt(file);
      const failing = await untilState(f, (s) => s.problem !== null, 'the problem seen');
      expect(failing.problem).to.match(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
      expect(failing.refusing_since).to.equal(null);
      expect(Date.parse(failing.grace_ends_at as string)).to.be.within(broke, Date.now() + GRACE_MS);
      expect(values, 'nothing handed during the grace').to.deep.equal([]);
      const over = await untilState(f, (s) => s.refusing_since !== null, 'the grace over');
      expect(over.grace_ends_at).to.equal(null);
      expect(Date.parse(over.refusing_since as string) - broke).to.be.at.least(GRACE_MS - 5);
      expect(values).to.deep.equal([null]);
      if (what.startsWith('replaced')) unlinkSync(file);
      writeFileSync(file, GOOD_B);
      await untilState(f, (s) => s.problem === null, 'the good file taken again');
      expect(values).to.deep.equal([null, ['alpha', 'bravo']]);
      expect(f.state()).to.deep.equal({ problem: null, grace_ends_at: null, refusing_since: null });
    });
  }
});
