/**
 * The prober's records read for `validate --probe` with one `git log` over the config folder, per file
 * (its path relative to the folder), newest first: a real repository, the folder at its root or below it.
 */
import path from 'node:path';
import { expect } from 'chai';
import { folderHealNotes, RPC_AUTO_TRAILER } from '../../src/probe/heal-notes.js';
import { trailersByFile } from '../../src/store/index.js';
import { makeConfigDir, removeDir, writeFile } from '../helpers/fixtures.js';
import { git, initRepo } from '../helpers/git-repo.js';

const WHO = ['-c', 'user.name=netcfg rpc-prober', '-c', 'user.email=netcfg@localhost'];

/** Commits `rel` (under `sub` of `repo`) as `text`, with `trailers` in the message's last paragraph. */
function commit(repo: string, sub: string, files: Record<string, string>, trailers: string[]): void {
  for (const [rel, text] of Object.entries(files)) writeFile(repo, path.join(sub, rel), text);
  git(repo, 'add', '-A');
  git(repo, ...WHO, 'commit', '-q', '-m', 'netcfg: a change', ...(trailers.length ? ['-m', trailers.join('\n')] : []));
}

const CASES = [
  { name: 'the config folder at the repository root', sub: '' },
  { name: 'the config folder below the repository root', sub: 'config/networks' },
];

/** What `validate --probe` reads: the folder's trailers from one git log, as the prober's records. */
const recordsOf = async (dir: string) => folderHealNotes(await trailersByFile(dir, [RPC_AUTO_TRAILER]));

describe("probe/heal-notes: every file's Netcfg-Rpc-Auto notes from one git log over the folder", () => {
  let repo = '';
  afterEach(() => removeDir(repo));

  for (const { name, sub } of CASES) {
    it(`${name}: per file, newest first, other trailers and files left out`, async () => {
      repo = makeConfigDir({ [path.join(sub, 'evm/a.yaml')]: 'a: 1\n', 'README.md': 'x\n' });
      initRepo(repo);
      commit(repo, sub, { 'evm/a.yaml': 'a: 2\n' }, [
        'Netcfg-Rpc-Auto: disabled rpc_urls[1] one',
        'Netcfg-Actor: system:rpc-prober',
      ]);
      commit(repo, sub, { 'evm/a.yaml': 'a: 3\n', 'solana/b c.yaml': 'b: 1\n' }, [
        'Netcfg-Rpc-Auto: restored rpc_urls[1] two',
      ]);
      commit(repo, sub, { 'evm/a.yaml': 'a: 4\n' }, ['Netcfg-Actor: token:ops']);
      commit(repo, '', { 'README.md': 'y\n' }, ['Netcfg-Rpc-Auto: not a network']);
      const byFile = await recordsOf(path.join(repo, sub));
      const records = (rel: string): string[] => (byFile.get(rel) ?? []).map((r) => r.text);
      expect(records('evm/a.yaml')).to.deep.equal(['restored rpc_urls[1] two', 'disabled rpc_urls[1] one']);
      expect(records('solana/b c.yaml')).to.deep.equal(['restored rpc_urls[1] two']);
      expect([...byFile.keys()].sort()).to.deep.equal(
        sub === '' ? ['README.md', 'evm/a.yaml', 'solana/b c.yaml'] : ['evm/a.yaml', 'solana/b c.yaml'],
      );
      for (const r of byFile.get('evm/a.yaml') ?? []) expect(Number.isNaN(Date.parse(r.at)), r.at).to.equal(false);
    });
  }

  it('outside a git work tree there are none', async () => {
    repo = makeConfigDir({ 'evm/a.yaml': 'a: 1\n' });
    expect((await recordsOf(repo)).size).to.equal(0);
  });
});
