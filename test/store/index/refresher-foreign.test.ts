/**
 * A path reported for what it was (a folder where a network file belongs) is cleared once it is a network file
 * again, even when the look at that report comes after the file is back: a shape-flips run on a fresh clone kept
 * "folders inside a family folder are not read" in readiness for evm/sepolia.yaml after the file was restored,
 * because the late look only asked whether the path was gone. Real folders and files.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Refresher } from '../../../src/store/index/refresher.js';
import { NetworkIndex } from '../../../src/store/index/network-index.js';
import { ConfigFolder } from '../../../src/store/files/config-folder.js';
import { NESTED_FOLDER, parseNetworkId } from '../../../src/store/files/layout.js';
import { OPEN_POLICY } from '../../../src/store/validation/url-rules.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../../helpers/fixtures.js';

describe('store/index/refresher: a foreign path looked at again', () => {
  let root: string;
  let index: NetworkIndex;
  let refresher: Refresher;
  const rel = 'evm/sepolia.yaml';
  beforeEach(() => {
    root = makeConfigDir(standardFiles());
    index = new NetworkIndex();
    refresher = new Refresher(new ConfigFolder(root), index, OPEN_POLICY);
    const { ids } = refresher.listEntries();
    for (const id of ids.values()) refresher.apply(refresher.observe(id));
  });
  afterEach(() => removeDir(root));

  // The folder's report by its words; any other is the file's own (a parser's message, worded by the parser).
  const reported = (): string[] =>
    index.invalidFiles().map((f) => `${f.path}: ${f.error === NESTED_FOLDER ? NESTED_FOLDER : 'its own problem'}`);
  const cases: Array<{ name: string; now: (file: string) => void; expected: string[] }> = [
    { name: 'still a folder: still reported', now: () => undefined, expected: [`${rel}: ${NESTED_FOLDER}`] },
    { name: 'gone: cleared', now: (file) => rmSync(file, { recursive: true }), expected: [] },
    {
      name: 'a network file again: cleared (the network reports its own file)',
      now: (file) => {
        rmSync(file, { recursive: true });
        renameSync(`${file}.aside`, file);
      },
      expected: [],
    },
    {
      name: 'a broken network file: its own problem stays, not the folder one',
      now: (file) => {
        rmSync(file, { recursive: true });
        writeFileSync(file, 'chain_id: [unclosed\n');
      },
      expected: [`${rel}: its own problem`],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const file = path.join(root, rel);
      renameSync(file, `${file}.aside`);
      mkdirSync(file);
      writeFileSync(path.join(file, 'x.yaml'), networkYaml());
      refresher.refreshForeign(rel, NESTED_FOLDER);
      expect(reported()).to.deep.equal([`${rel}: ${NESTED_FOLDER}`]);
      c.now(file);
      refresher.apply(refresher.observe(parseNetworkId('evm:sepolia')!)); // the network's own look
      refresher.refreshForeign(rel, NESTED_FOLDER); // the look scheduled for the folder, run after it
      expect(reported()).to.deep.equal(c.expected);
    });
  }
});
