/**
 * frees-on-close: a folder on a local file system (the tests' temp folders: ext4 or tmpfs on the
 * machines this runs on) may keep a replaced file open across its rename; a folder that is not
 * there says no without being remembered, so it is asked again once it exists.
 */
import { mkdirSync, statfsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { freesOnClose } from '../../src/store/frees-on-close.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';

describe('store/frees-on-close', () => {
  let root: string;

  beforeEach(() => {
    root = makeConfigDir({});
  });

  afterEach(() => removeDir(root));

  it('says yes for a folder on a local file system', () => {
    expect(freesOnClose(root), `statfs type 0x${statfsSync(root).type.toString(16)}`).to.equal(true);
  });

  it('says no for a folder not there yet, and yes once it is made', () => {
    const later = path.join(root, 'evm');
    expect(freesOnClose(later)).to.equal(false);
    mkdirSync(later);
    expect(freesOnClose(later), 'not remembered as no').to.equal(true);
  });
});
