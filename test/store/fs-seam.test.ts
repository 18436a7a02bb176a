/**
 * fs-seam's write steps and the lock folder a write may leave for after its answer
 * (WriteSteps.removeAfterAnswer): once the file is renamed into place, the folder's rmdir waits for
 * the answer; when nothing was renamed, the folder is gone before it. The seam here only notes the
 * folder, so the test sees the disk between the answer and the rmdir, as a disk thread leaves it
 * (disk-thread.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { nodeFs, removeLockFolder, writeAndReplaceBySteps, type WriteSteps } from '../../src/store/fs-seam.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';

describe('store/fs-seam, the lock folder left for after the answer', () => {
  let root: string;
  let target: string;
  let tmpDir: string;
  let lockFolder: string;
  let left: string[];
  let steps: WriteSteps;

  beforeEach(() => {
    root = makeConfigDir({});
    mkdirSync(path.join(root, 'evm'));
    tmpDir = path.join(root, '.tmp');
    mkdirSync(tmpDir);
    mkdirSync(path.join(root, '.locks'));
    target = path.join(root, 'evm', 'sepolia.yaml');
    writeFileSync(target, 'old\n');
    lockFolder = path.join(root, '.locks', 'evm~sepolia.lock');
    left = [];
    steps = { ...nodeFs, removeAfterAnswer: (folder) => left.push(folder) };
  });

  afterEach(() => removeDir(root));

  it('answers a rename with the lock folder still there, named for removal after the answer', async () => {
    const replaced = await writeAndReplaceBySteps(steps, path.join(tmpDir, '.a.tmp'), 'new\n', 0o644, target, Buffer.from('old\n'), null, lockFolder);
    expect(replaced.outcome).to.equal('renamed');
    expect(readFileSync(target, 'utf8')).to.equal('new\n');
    expect(existsSync(lockFolder), 'the folder goes after the answer').to.equal(true);
    expect(left).to.deep.equal([lockFolder]);
    removeLockFolder(lockFolder);
    expect(existsSync(lockFolder)).to.equal(false);
    removeLockFolder(lockFolder); // gone already: quietly nothing
  });

  for (const [what, expected] of [
    ['the file changed meanwhile', 'something else\n'],
    ['the file is gone', 'old\n'],
  ] as const) {
    it(`removes the folder before answering when nothing was renamed (${what})`, async () => {
      if (what === 'the file is gone') removeDir(path.dirname(target));
      const replaced = await writeAndReplaceBySteps(steps, path.join(tmpDir, '.b.tmp'), 'new\n', 0o644, target, Buffer.from(expected), null, lockFolder);
      expect(replaced.outcome).to.equal(what === 'the file is gone' ? 'gone' : 'changed');
      expect(left, 'nothing left for later').to.deep.equal([]);
      expect(existsSync(lockFolder), 'the caller may take the lock the long way next').to.equal(false);
      expect(readdirSync(tmpDir), 'only the temp file, the caller to remove').to.deep.equal(['.b.tmp']);
    });
  }

  it('without removeAfterAnswer (nodeFs), removes the lock folder before answering', async () => {
    const replaced = await writeAndReplaceBySteps(nodeFs, path.join(tmpDir, '.c.tmp'), 'new\n', 0o644, target, Buffer.from('old\n'), null, lockFolder);
    expect(replaced.outcome).to.equal('renamed');
    expect(existsSync(lockFolder)).to.equal(false);
  });
});
