/**
 * GIT_SYNC's queue of writes: what it feeds `git fast-import` becomes one commit per write (that
 * file alone, with its message and author) in a real repository, and each write's promise settles
 * with the outcome it is given.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { NetcfgError } from '../../../src/errors.js';
import { OUTGOING, WriteQueue } from '../../../src/store/git/write-queue.js';
import { git, initRepo } from '../../helpers/git-repo.js';

describe('store/git/write-queue', () => {
  let repo: string;
  beforeEach(() => {
    repo = mkdtempSync(path.join(os.tmpdir(), 'netcfg-queue-'));
    mkdirSync(path.join(repo, 'config', 'evm'), { recursive: true });
    writeFileSync(path.join(repo, 'config', 'evm', 'a.yaml'), 'a: 1\n');
    writeFileSync(path.join(repo, 'config', 'evm', 'b.yaml'), 'b: 1\n');
    initRepo(repo);
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('fast-import makes one commit per queued write, each of its file alone, in order, on top of the base', () => {
    const queue = new WriteQueue();
    void queue.add('config/evm/a.yaml', 0o644, 'a: 2 # kept\n', 'netcfg: update a', 'netcfg <netcfg@localhost>');
    void queue.add('config/evm/b.yaml', 0o755, 'b: 2\n', 'netcfg: update b', 'netcfg <netcfg@localhost>');
    void queue.add('config/evm/a.yaml', 0o644, 'a: 3\n', 'netcfg: update a again', 'netcfg <netcfg@localhost>');
    execFileSync('git', ['-C', repo, 'fast-import', '--quiet', '--date-format=now'], {
      input: queue.fastImportInput(3, 'HEAD', 'netcfg <netcfg@localhost>'),
    });
    const log = git(repo, 'log', '--format=%an <%ae>|%s', OUTGOING).trim().split('\n');
    expect(log).to.deep.equal([
      'netcfg <netcfg@localhost>|netcfg: update a again',
      'netcfg <netcfg@localhost>|netcfg: update b',
      'netcfg <netcfg@localhost>|netcfg: update a',
      'seed <seed@example.com>|seed',
    ]);
    const files = (rev: string): string => git(repo, 'show', '--name-only', '--format=', rev).trim();
    expect([files(`${OUTGOING}`), files(`${OUTGOING}~1`), files(`${OUTGOING}~2`)]).to.deep.equal([
      'config/evm/a.yaml',
      'config/evm/b.yaml',
      'config/evm/a.yaml',
    ]);
    expect(git(repo, 'show', `${OUTGOING}~2:config/evm/a.yaml`)).to.equal('a: 2 # kept\n');
    expect(git(repo, 'show', `${OUTGOING}:config/evm/a.yaml`)).to.equal('a: 3\n');
    expect(git(repo, 'ls-tree', OUTGOING, 'config/evm/b.yaml')).to.match(/^100755 /);
  });

  it('each promise settles with its outcome; settledSoFar waits for the last write queued', async () => {
    const queue = new WriteQueue();
    const first = queue.add('a', 0o644, 'x', 'm', 'netcfg <netcfg@localhost>');
    const second = queue.add('b', 0o644, 'y', 'm', 'netcfg <netcfg@localhost>');
    const soFar = queue.settledSoFar();
    expect(queue.paths()).to.deep.equal(new Set(['a', 'b']));
    queue.settleFirst(1, 'pushed');
    expect(await first).to.equal('pushed');
    queue.settleAll(() => new NetcfgError('GIT_REMOTE_UNAVAILABLE', 'down'));
    const failed = await second.catch((err: unknown) => err as NetcfgError);
    expect(failed).to.be.instanceOf(NetcfgError).and.have.property('code', 'GIT_REMOTE_UNAVAILABLE');
    expect(await soFar.catch((err: unknown) => (err as NetcfgError).code)).to.equal('GIT_REMOTE_UNAVAILABLE');
    expect(queue.length).to.equal(0);
    expect(await queue.settledSoFar()).to.equal('pushed');
  });
});
