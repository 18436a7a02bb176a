/**
 * follow/TargetsFollow on a real RELAYER_SYNC_FILE: a good change hands the new relayers over, a
 * change that does not parse or names a key variable that is not set keeps the last good list (for
 * as long as it lasts) and says `file:line:column` or the variable, and a fixed file is taken again.
 * Each wait is on the follower's own state events, with a deadline.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { FollowedState } from '../../src/follow/followed-file.js';
import { TargetsFollow, type ResolvedTarget, type TargetKeys } from '../../src/follow/relayer-targets.js';
import { within } from '../helpers/deadline.js';
import { untilState } from '../helpers/until-state.js';

const relayer = (name: string, keyEnv = 'EU_KEY'): string =>
  `  - name: ${name}\n    url: http://127.0.0.1:9/${name}\n    api_key_env: ${keyEnv}\n`;
const ENV: Record<string, string> = { EU_KEY: 'eu-key-0123456789', US_KEY: 'us-key-0123456789' };
const KEYS: TargetKeys = (specs) => {
  const unset = specs.find((s) => ENV[s.apiKeyEnv] === undefined);
  if (unset) return { problem: `${unset.apiKeyEnv}, the key of relayer ${unset.name}, is not set` };
  return {
    targets: specs.map((s) => ({
      name: s.name,
      url: s.url,
      apiKey: ENV[s.apiKeyEnv] as string,
      networks: s.networks,
      selfHeal: s.selfHeal,
    })),
  };
};

describe('follow/TargetsFollow (RELAYER_SYNC_FILE followed while running)', function () {
  this.timeout(20_000);
  let dir: string;
  let file: string;
  let follow: TargetsFollow | null = null;
  let taken: string[][] = [];
  let heard: () => void = () => undefined;
  /** Resolves once `count` lists were handed over. */
  const takenCount = (count: number, what: string): Promise<void> => {
    const enough = new Promise<void>((resolve) => {
      heard = () => {
        if (taken.length >= count) resolve();
      };
      heard();
    });
    return within(enough, 5000, what);
  };

  const write = (text: string): void => {
    writeFileSync(`${file}.next`, text);
    renameSync(`${file}.next`, file);
  };
  const until = (test: (s: FollowedState) => boolean, what: string): Promise<FollowedState> =>
    untilState(follow as TargetsFollow, test, what);
  const names = (targets: ResolvedTarget[]): string[] => targets.map((t) => t.name);

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-targets-'));
    file = path.join(dir, 'relayers.yaml');
    taken = [];
    writeFileSync(file, `relayers:\n${relayer('eu')}`);
    follow = new TargetsFollow(file, KEYS, (targets) => (taken.push(names(targets)), heard()), {
      info: () => undefined,
      error: () => undefined,
    });
    await follow.start();
  });
  afterEach(async () => {
    await follow?.close();
    follow = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes the file at start, then a relayer added and one removed', async () => {
    expect(taken).to.deep.equal([['eu']]);
    write(`relayers:\n${relayer('eu')}${relayer('us', 'US_KEY')}`);
    await takenCount(2, 'the added relayer');
    write(`relayers:\n${relayer('us', 'US_KEY')}`);
    await takenCount(3, 'the removed relayer');
    expect(taken).to.deep.equal([['eu'], ['eu', 'us'], ['us']]);
  });

  const BROKEN: Array<[string, string, RegExp]> = [
    ['a file that does not parse', 'relayers:\n  - name: eu\n    url: [', /relayers\.yaml:\d+:\d+: /],
    ['a relayer with no url', 'relayers:\n  - name: eu\n    api_key_env: EU_KEY\n', /relayers\.yaml:2:5: url must be/],
    [
      'a key variable that is not set',
      `relayers:\n${relayer('eu')}${relayer('ap', 'AP_KEY')}`,
      /AP_KEY, the key of relayer ap, is not set/,
    ],
  ];
  for (const [what, text, problem] of BROKEN) {
    it(`${what}: the last good list stays, readiness says where, and a good file is taken again`, async () => {
      write(text);
      const state = await until((s) => s.problem !== null, 'the problem');
      expect(state.problem).to.match(problem);
      expect(state.refusing_since, 'never given up').to.equal(null);
      expect(taken).to.deep.equal([['eu']]);
      write(`relayers:\n${relayer('eu')}${relayer('us', 'US_KEY')}`);
      await until((s) => s.problem === null, 'the fixed file');
      expect(taken).to.deep.equal([['eu'], ['eu', 'us']]);
    });
  }
});
