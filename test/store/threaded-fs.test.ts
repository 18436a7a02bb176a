/**
 * ThreadedFs: the write steps run on disk threads and answer exactly as nodeFs does on the main
 * thread: the same outcomes, errors with their errno code (the writer maps them to 503/404), and
 * threads that stop on close() and start again on the next write. Locks go to a disk thread only
 * while another is held (test/store/file-lock.test.ts runs FileLocks on either).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { stampOf } from '../../src/store/folder-listing.js';
import { giveGoAhead, newGoAhead } from '../../src/store/go-ahead.js';
import { ThreadedFs } from '../../src/store/threaded-fs.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';
import { openDeletedFiles } from '../helpers/read-disk.js';

describe('store/threaded-fs', () => {
  let root: string;
  let fs: ThreadedFs;
  let target: string;

  beforeEach(() => {
    root = makeConfigDir({});
    mkdirSync(path.join(root, 'evm'));
    target = path.join(root, 'evm', 'sepolia.yaml');
    writeFileSync(target, 'old\n');
    fs = new ThreadedFs(2);
  });

  afterEach(async () => {
    await fs.close();
    removeDir(root);
  });

  it('writes a temp file and renames it over the file, only while the file holds the expected bytes', async () => {
    const early = path.join(root, 'evm', '.a.tmp');
    const sent = await fs.writeAndReplace(early, 'new\n', 0o640, target, Buffer.from('something else\n'), null);
    expect(sent).to.deep.equal({ outcome: 'changed' });
    expect(readFileSync(target, 'utf8')).to.equal('old\n');
    expect(readFileSync(early, 'utf8'), 'the temp file is written, and left for the caller').to.equal('new\n');
    const tmp = path.join(root, 'evm', '.b.tmp');
    const renamed = await fs.writeAndReplace(tmp, 'new\n', 0o640, target, Buffer.from('old\n'), null);
    expect(renamed, 'with the stamp the file has as renamed (what the watcher will see)').to.deep.equal({ outcome: 'renamed', stamp: stampOf(target) });
    expect(readFileSync(target, 'utf8')).to.equal('new\n');
    expect(statSync(target).mode & 0o777).to.equal(0o640);
    expect(existsSync(tmp)).to.equal(false);
  });

  it('refuses a temp path that exists (EEXIST) and leaves the file as it was', async () => {
    const tmp = path.join(root, 'evm', '.c.tmp');
    writeFileSync(tmp, 'someone else\n');
    const err = await fs.writeAndReplace(tmp, 'new\n', 0o644, target, Buffer.from('old\n'), null).then(() => null, (e: NodeJS.ErrnoException) => e);
    expect(err?.code).to.equal('EEXIST');
    expect(err?.path, 'with the path, as a call on this thread gives it').to.equal(tmp);
    expect(readFileSync(target, 'utf8')).to.equal('old\n');
    expect(readFileSync(tmp, 'utf8')).to.equal('someone else\n');
  });

  it('does not rename while the git lock file exists, nor over a file that is gone', async () => {
    const gitLock = path.join(root, 'index.lock');
    writeFileSync(gitLock, '');
    expect((await fs.writeAndReplace(path.join(root, 'evm', '.d.tmp'), 'new\n', 0o644, target, Buffer.from('old\n'), gitLock)).outcome).to.equal('changed');
    const gone = path.join(root, 'evm', 'gone.yaml');
    expect((await fs.writeAndReplace(path.join(root, 'evm', '.e.tmp'), 'new\n', 0o644, gone, Buffer.from('old\n'), null)).outcome).to.equal('gone');
    expect(readFileSync(target, 'utf8')).to.equal('old\n');
    expect(existsSync(gone)).to.equal(false);
  });

  it('with a go-ahead, the rename waits for it on the disk thread: yes renames, no leaves the file and the temp file', async () => {
    /** Resolves once the disk thread has written the whole temp file (polled: no event says so). */
    const written = async (tmp: string): Promise<void> => {
      const deadline = Date.now() + 5000;
      while (!(existsSync(tmp) && readFileSync(tmp, 'utf8') === 'new\n')) {
        if (Date.now() > deadline) throw new Error(`${tmp} was not written within 5 s`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    for (const go of [true, false]) {
      writeFileSync(target, 'old\n');
      const tmp = path.join(root, 'evm', `.go-${go}.tmp`);
      const cell = newGoAhead();
      const replacing = fs.writeAndReplace(tmp, 'new\n', 0o644, target, Buffer.from('old\n'), null, null, cell);
      await written(tmp);
      expect(readFileSync(target, 'utf8'), 'not renamed before the verdict').to.equal('old\n');
      giveGoAhead(cell, go);
      const { outcome } = await replacing;
      expect(outcome).to.equal(go ? 'renamed' : 'stopped');
      expect(readFileSync(target, 'utf8')).to.equal(go ? 'new\n' : 'old\n');
      expect(existsSync(tmp), 'a stopped write leaves its temp file to the caller').to.equal(!go);
    }
  });

  it('writes in parallel on several threads, and starts them again after close()', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const file = (n: string): string => path.join(root, 'evm', `${n}.yaml`);
    for (const n of names) writeFileSync(file(n), 'old\n');
    const outcomes = await Promise.all(names.map(async (n) => (await fs.writeAndReplace(path.join(root, 'evm', `.${n}.tmp`), n, 0o644, file(n), Buffer.from('old\n'), null)).outcome));
    expect(outcomes).to.deep.equal(names.map(() => 'renamed'));
    expect(fs.threadCount).to.equal(2);
    for (const n of names) expect(readFileSync(file(n), 'utf8')).to.equal(n);
    await fs.close();
    await fs.fsyncDir(path.join(root, 'evm'));
    const err = await fs.fsyncDir(path.join(root, 'nowhere')).then(() => null, (e: NodeJS.ErrnoException) => e);
    expect(err?.code).to.equal('ENOENT');
  });

  it("sends a network's next write to the thread that cleans up after answering, and settled() waits for that", async () => {
    const tmpDir = path.join(root, '.tmp');
    const locks = path.join(root, '.locks');
    mkdirSync(tmpDir);
    mkdirSync(locks);
    const other = path.join(root, 'evm', 'other.yaml');
    writeFileSync(other, 'old\n');
    const lockOf = (file: string): string => path.join(locks, `${path.basename(file)}.lock`);
    // Two threads running, both idle: a write goes to the first.
    await Promise.all([fs.fsyncDir(locks), fs.fsyncDir(locks)]);
    expect(fs.loads).to.deep.equal([0, 0]);
    const first = await fs.writeAndReplace(path.join(tmpDir, '.1.tmp'), 'v1\n', 0o644, target, Buffer.from('old\n'), null, lockOf(target));
    expect(first.outcome).to.equal('renamed');
    // The first thread is held by another network's write, waiting for its go-ahead.
    const cell = newGoAhead();
    const held = fs.writeAndReplace(path.join(tmpDir, '.2.tmp'), 'other\n', 0o644, other, Buffer.from('old\n'), null, lockOf(other), cell);
    expect(fs.loads).to.deep.equal([1, 0]);
    const second = fs.writeAndReplace(path.join(tmpDir, '.3.tmp'), 'v2\n', 0o644, target, Buffer.from('v1\n'), null, lockOf(target));
    expect(fs.loads, 'behind the folder its last write removes, not on the idle thread').to.deep.equal([2, 0]);
    giveGoAhead(cell, true);
    expect((await held).outcome).to.equal('renamed');
    expect((await second).outcome, 'never "locked" by its own folder').to.equal('renamed');
    await fs.settled();
    expect(readdirSync(locks), 'the folders are gone once settled').to.deep.equal([]);
    expect(readdirSync(tmpDir), 'and no temp file').to.deep.equal([]);
    expect(openDeletedFiles(root) ?? [], 'nor a replaced file held open (closed after each answer)').to.deep.equal([]);
    expect(readFileSync(target, 'utf8')).to.equal('v2\n');
  });

  it('takes a lock on this thread when no other is held, and on a disk thread while one is', async () => {
    const locks = path.join(root, '.locks');
    mkdirSync(locks);
    const ignore = (): void => undefined;
    const alone = await fs.takeLock(path.join(locks, 'a'), 5000, ignore);
    expect(fs.threadCount, 'no disk thread for a lone writer').to.equal(0);
    const second = await fs.takeLock(path.join(locks, 'b'), 5000, ignore);
    expect(fs.threadCount, 'a disk thread for the second').to.equal(1);
    expect(readdirSync(locks).sort()).to.deep.equal(['a.lock', 'b.lock']);
    const err = await fs.takeLock(path.join(locks, 'b'), 5000, ignore).then(() => null, (e: NodeJS.ErrnoException) => e);
    expect(err?.code, 'a held lock is refused on a disk thread too').to.equal('ELOCKED');
    await Promise.all([alone(), second()]);
    expect(readdirSync(locks)).to.deep.equal([]);
  });

  it('a lock whose thread is gone is reported compromised, and its release does not hang', async () => {
    const onThreads = new ThreadedFs(1, 'on-threads');
    const locks = path.join(root, '.locks');
    mkdirSync(locks);
    let lost: Error | null = null;
    const release = await onThreads.takeLock(path.join(locks, 'a'), 5000, (err) => (lost = err));
    await onThreads.close(); // the thread that keeps the lock fresh is gone
    expect(lost, 'the holder hears its lock is no longer kept').to.be.instanceOf(Error);
    const err = await release().then(() => null, (e: Error) => e);
    expect(err?.message).to.match(/exited/);
    // The next lock starts a new thread (the folder the dead thread left is still there: a fresh name).
    const again = await onThreads.takeLock(path.join(locks, 'b'), 5000, () => undefined);
    await again();
    await onThreads.close();
  });
});
