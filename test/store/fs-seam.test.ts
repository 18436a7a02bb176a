/**
 * fs-seam's write steps and what a write may leave for after its answer: the lock folder
 * (WriteSteps.removeAfterAnswer), whose rmdir waits for the answer once the file is renamed into
 * place and goes before it when nothing was renamed; and the replaced file, held open across the
 * rename so that its inode is freed at a later close (renameIfUnchangedSync). The seam here only
 * notes what is left, so the test sees the disk between the answer and the cleanup, as a disk
 * thread leaves it (disk-thread.ts).
 */
import { closeSync, existsSync, fstatSync, mkdirSync, readdirSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { nodeFs, removeLockFolder, renameIfUnchangedSync, writeAndReplaceBySteps, type WriteSteps } from '../../src/store/fs-seam.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';
import { openDeletedFiles } from '../helpers/read-disk.js';

describe('store/fs-seam, the lock folder left for after the answer', () => {
  let root: string;
  let target: string;
  let tmpDir: string;
  let lockFolder: string;
  let left: string[];
  /** The replaced files' fds the seam was given to close later. */
  let heldOpen: number[];
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
    heldOpen = [];
    steps = {
      ...nodeFs,
      renameIfUnchanged: async (from, to, expected, gitLockFile) => renameIfUnchangedSync(from, to, expected, gitLockFile, (fd) => heldOpen.push(fd)),
      removeAfterAnswer: (folder) => left.push(folder),
    };
  });

  afterEach(() => {
    for (const fd of heldOpen) closeSync(fd);
    removeDir(root);
  });

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
      expect(heldOpen, 'no file held open').to.deep.equal([]);
      expect(existsSync(lockFolder), 'the caller may take the lock the long way next').to.equal(false);
      expect(readdirSync(tmpDir), 'only the temp file, the caller to remove').to.deep.equal(['.b.tmp']);
    });
  }

  it('without removeAfterAnswer (nodeFs), removes the lock folder before answering', async () => {
    const replaced = await writeAndReplaceBySteps(nodeFs, path.join(tmpDir, '.c.tmp'), 'new\n', 0o644, target, Buffer.from('old\n'), null, lockFolder);
    expect(replaced.outcome).to.equal('renamed');
    expect(existsSync(lockFolder)).to.equal(false);
  });

  it('answers a rename with the replaced file still open, its inode freed only at the close left for later', async () => {
    const result = await writeAndReplaceBySteps(steps, path.join(tmpDir, '.d.tmp'), 'new\n', 0o644, target, Buffer.from('old\n'), null, lockFolder);
    expect(result.outcome).to.equal('renamed');
    expect(readFileSync(target, 'utf8')).to.equal('new\n');
    expect(heldOpen).to.have.length(1);
    const fd = heldOpen[0] as number;
    expect(fstatSync(fd).nlink, 'unlinked by the rename').to.equal(0);
    const old = Buffer.alloc(16);
    expect(old.subarray(0, readSync(fd, old, 0, old.length, 0)).toString(), 'the old inode, whole until closed').to.equal('old\n');
    const deleted = openDeletedFiles(root);
    if (deleted !== null) expect(deleted).to.deep.equal([`${target} (deleted)`]);
  });

  it('renameIfUnchangedSync closes what it opened at once by default, renamed or not', () => {
    if (openDeletedFiles(root) === null) return; // no /proc to look in
    const fds = (): number => readdirSync('/proc/self/fd').length;
    const before = fds();
    const tmp = path.join(tmpDir, '.e.tmp');
    writeFileSync(tmp, 'new\n');
    expect(renameIfUnchangedSync(tmp, target, Buffer.from('not this\n'), null)).to.equal('changed');
    expect(renameIfUnchangedSync(tmp, target, Buffer.from('old\n'), null)).to.equal('renamed');
    expect(openDeletedFiles(root), 'the replaced file is not held').to.deep.equal([]);
    expect(fds(), 'no fd left open').to.equal(before);
  });
});
