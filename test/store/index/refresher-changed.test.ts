/**
 * What a look by stat (refreshChanged: after a storm, git's rewrite, a new watch) finds to read again. A network
 * named in readiness is looked at again even when its file is as it was applied: its family folder made a link out
 * of the folder and then a folder again leaves the file unchanged, and a shape-flips run beside a second suite kept
 * "its family folder stellar is now a symbolic link to outside" in readiness after the folder was back. Real folders.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Refresher } from '../../../src/store/index/refresher.js';
import { NetworkIndex } from '../../../src/store/index/network-index.js';
import { ConfigFolder } from '../../../src/store/files/config-folder.js';
import { parseNetworkId, type NetworkId } from '../../../src/store/files/layout.js';
import { OPEN_POLICY } from '../../../src/store/validation/url-rules.js';
import { parseNetworkFile } from '../../../src/store/validation/network-file.js';
import type { NetworkRecord } from '../../../src/store/network-record.js';
import { networkYaml, removeDir, standardFiles, writeFile } from '../../helpers/fixtures.js';

describe('store/index/refresher: what changed since applied', () => {
  let base: string;
  let root: string;
  let refresher: Refresher;
  let index: NetworkIndex;
  const id = parseNetworkId('evm:sepolia') as NetworkId;
  /** `text` as the record a write would put for evm/sepolia.yaml. */
  const recordOf = (text: string): NetworkRecord => {
    const outcome = parseNetworkFile(text, id, 'evm/sepolia.yaml', OPEN_POLICY);
    if (!outcome.ok) throw new Error('not a network');
    return outcome.record;
  };
  beforeEach(() => {
    base = mkdtempSync(path.join(tmpdir(), 'netcfg-changed-'));
    root = path.join(base, 'config');
    for (const [rel, text] of Object.entries(standardFiles())) writeFile(root, rel, text);
    mkdirSync(path.join(base, 'outside'));
    index = new NetworkIndex();
    refresher = new Refresher(new ConfigFolder(root), index, OPEN_POLICY);
    const { ids } = refresher.listEntries();
    for (const each of ids.values()) refresher.apply(refresher.observe(each));
  });
  afterEach(() => removeDir(base));

  const family = (): string => path.join(root, 'evm');
  /** The family folder made a link out of the folder, applied (so named), then put back with its file unchanged. */
  const linkedOutAndBack = [
    () => renameSync(family(), `${family()}.aside`),
    () => symlinkSync(path.join(base, 'outside'), family()),
    () => refresher.apply(refresher.observe(id)),
    () => rmSync(family()),
    () => renameSync(`${family()}.aside`, family()),
  ];
  const cases: Array<{ name: string; steps: Array<() => void>; changed: boolean }> = [
    { name: 'nothing happened', steps: [], changed: false },
    {
      name: 'the file rewritten',
      steps: [() => writeFileSync(path.join(family(), 'sepolia.yaml'), networkYaml({ extra: 'symbol: NEW' }))],
      changed: true,
    },
    {
      name: 'its family folder a link out, applied (named), then the folder back, the file unchanged',
      steps: linkedOutAndBack,
      changed: true,
    },
    {
      name: 'the same, looked at once it is back: nothing more to do',
      steps: [...linkedOutAndBack, () => refresher.apply(refresher.observe(id))],
      changed: false,
    },
    // A write puts its own record in the index before its file's event comes (network-writer.ts).
    {
      name: "a write's record served, its file's event not yet come",
      steps: [() => index.put(recordOf(networkYaml({ extra: 'symbol: PUT' })))],
      changed: true,
    },
    {
      name: "a write's record served after the removal of its file was applied (the event spent)",
      steps: [
        () => rmSync(path.join(family(), 'sepolia.yaml')),
        () => refresher.apply(refresher.observe(id)),
        () => index.put(recordOf(networkYaml())),
      ],
      changed: true,
    },
    {
      name: "an older record served after the file's new version was applied (the event spent)",
      steps: [
        () => writeFileSync(path.join(family(), 'sepolia.yaml'), networkYaml({ extra: 'symbol: NEW' })),
        () => refresher.apply(refresher.observe(id)),
        () => index.put(recordOf(networkYaml())),
      ],
      changed: true,
    },
    {
      name: "a write's record served, then its file read back: nothing more to do",
      steps: [
        () => writeFileSync(path.join(family(), 'sepolia.yaml'), networkYaml({ extra: 'symbol: NEW' })),
        () => index.put(recordOf(networkYaml({ extra: 'symbol: NEW' }))),
        () => refresher.apply(refresher.observe(id)),
      ],
      changed: false,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.changed ? 'looked at again' : 'left alone'}`, () => {
      for (const step of c.steps) step();
      expect(refresher.changedSinceApplied(id)).to.equal(c.changed);
    });
  }
});
