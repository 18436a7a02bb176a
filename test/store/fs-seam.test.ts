/**
 * fs-seam's write steps and what they leave for after a write's answer (WriteSteps.later): once a
 * file is renamed into place, its lock folder's rmdir and the old file's last link wait for the
 * answer; when nothing was renamed, nothing waits. `later` here collects the tasks, so the test
 * sees the disk between the answer and the tasks, as a disk thread leaves it (disk-thread.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { nodeFs, renameIfUnchangedSync, writeAndReplaceBySteps, type Later, type WriteSteps } from '../../src/store/fs-seam.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';

describe('store/fs-seam, steps left for after the answer', () => {
  let root: string;
  let target: string;
  let tmpDir: string;
  let lockFolder: string;
  let tasks: Array<{ task: () => void; lockFolder: string | undefined }>;
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
    tasks = [];
    const later: Later = (task, folder) => tasks.push({ task, lockFolder: folder });
    // As the disk thread's steps: the rename step given `later` too, so the old file gets its second link.
    steps = { ...nodeFs, renameIfUnchanged: async (...args) => renameIfUnchangedSync(...args, later), later };
  });

  afterEach(() => removeDir(root));

  it('answers a rename with the lock folder and a second link of the old file still there, and the tasks remove both', async () => {
    const oldInode = statSync(target).ino;
    const replaced = await writeAndReplaceBySteps(steps, path.join(tmpDir, '.a.tmp'), 'new\n', 0o644, target, Buffer.from('old\n'), null, lockFolder);
    expect(replaced.outcome).to.equal('renamed');
    expect(readFileSync(target, 'utf8')).to.equal('new\n');
    expect(existsSync(lockFolder), 'the lock folder goes after the answer').to.equal(true);
    const kept = readdirSync(tmpDir);
    expect(kept, 'the old file, by its second link').to.have.length(1);
    const aside = path.join(tmpDir, kept[0] as string);
    expect(statSync(aside).ino, 'the very inode the rename replaced').to.equal(oldInode);
    expect(readFileSync(aside, 'utf8')).to.equal('old\n');
    expect(kept[0], 'a temp name, swept at start if a crash leaves it').to.match(/^\.sepolia\.yaml\.\d+\.[0-9a-f]+\.tmp$/);
    expect(tasks.map((t) => t.lockFolder), 'the rmdir names its folder; the unlink names none').to.have.members([lockFolder, undefined]);
    for (const { task } of tasks) task();
    expect(existsSync(lockFolder)).to.equal(false);
    expect(readdirSync(tmpDir)).to.deep.equal([]);
    expect(statSync(target).nlink).to.equal(1);
  });

  it('leaves nothing for later when the file changed meanwhile: the folder and the link are gone at the answer', async () => {
    const tmp = path.join(tmpDir, '.b.tmp');
    const replaced = await writeAndReplaceBySteps(steps, tmp, 'new\n', 0o644, target, Buffer.from('something else\n'), null, lockFolder);
    expect(replaced.outcome).to.equal('changed');
    expect(tasks).to.deep.equal([]);
    expect(existsSync(lockFolder), 'the caller may take the lock the long way next').to.equal(false);
    expect(readdirSync(tmpDir), 'only the temp file, the caller to remove').to.deep.equal(['.b.tmp']);
    expect(readFileSync(target, 'utf8')).to.equal('old\n');
    expect(statSync(target).nlink).to.equal(1);
  });

  it('without `later` (nodeFs), removes the lock folder before answering and makes no second link', async () => {
    const replaced = await writeAndReplaceBySteps(nodeFs, path.join(tmpDir, '.c.tmp'), 'new\n', 0o644, target, Buffer.from('old\n'), null, lockFolder);
    expect(replaced.outcome).to.equal('renamed');
    expect(existsSync(lockFolder)).to.equal(false);
    expect(readdirSync(tmpDir)).to.deep.equal([]);
  });
});
