/**
 * The generic trailer reader: the values of the keys asked, by key, from one git log over a folder,
 * by file; commits without any of them, and folders outside a work tree, give none.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parseTrailers, trailersByFile } from '../../../src/store/history/trailers.js';
import { makeConfigDir, removeDir } from '../../helpers/fixtures.js';
import { git, initRepo } from '../../helpers/git-repo.js';

const PARSE_CASES = [
  { name: 'one value', fields: ['a'], want: { K: ['a'] } },
  { name: 'several values', fields: ['a\x1d b \x1d'], want: { K: ['a', 'b'] } },
  { name: 'none', fields: [''], want: { K: [] } },
  { name: 'a field missing', fields: [], want: { K: [] } },
];

describe('store/history/trailers', () => {
  for (const row of PARSE_CASES) {
    it(`parseTrailers: ${row.name}`, () => {
      expect(parseTrailers(['K'], row.fields)).to.deep.equal(row.want);
    });
  }

  it('trailersByFile: the commits carrying a key, by file, newest first', async () => {
    const repo = makeConfigDir({ 'seed.txt': 'x\n' });
    try {
      initRepo(repo);
      const dir = path.join(repo, 'config');
      mkdirSync(path.join(dir, 'evm'), { recursive: true });
      const commit = (rel: string, text: string, message: string): void => {
        writeFileSync(path.join(dir, rel), text);
        git(repo, 'add', '-A');
        git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', message);
      };
      commit('evm/a.yaml', '1\n', 'first\n\nK: one');
      commit('evm/b.yaml', '1\n', 'plain, no trailer');
      commit('evm/a.yaml', '2\n', 'second\n\nK: two\nOther: x');
      const byFile = await trailersByFile(dir, ['K']);
      expect([...byFile.keys()]).to.deep.equal(['evm/a.yaml']);
      expect(byFile.get('evm/a.yaml')?.map((c) => c.trailers)).to.deep.equal([{ K: ['two'] }, { K: ['one'] }]);
    } finally {
      removeDir(repo);
    }
  });

  it('trailersByFile: outside a work tree, none', async () => {
    const dir = makeConfigDir({ 'evm/a.yaml': '1\n' });
    try {
      expect((await trailersByFile(dir, ['K'])).size).to.equal(0);
    } finally {
      removeDir(dir);
    }
  });
});
