/**
 * access/TokenSet as a table: API_KEY and the file's tokens found (by digest), unknown and expired
 * refused, a set replaced a slice at a time swapped in whole, and a later replace winning over a
 * sliced one still being built.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { TokenSet } from '../../src/access/token-set.js';
import type { TokenEntry } from '../../src/access/tokens-file.js';

const KEY = 'k'.repeat(40);
const sha = (token: string): string => createHash('sha256').update(token).digest('hex');
const entry = (name: string, extra: Partial<TokenEntry> = {}): TokenEntry => ({
  name,
  sha256: sha(`ncfg_${name}`),
  role: 'read',
  networks: null,
  revealSecrets: false,
  expires: null,
  ...extra,
});
const NOW = Date.parse('2026-06-01T12:00:00Z');

describe('access/TokenSet', () => {
  const set = new TokenSet(
    [
      entry('reader'),
      entry('old', { expires: '2026-06-01' }),
      entry('later', { expires: '2026-06-02', role: 'admin' }),
    ],
    KEY,
    () => NOW,
  );
  const TABLE: Array<[string, string, string | null]> = [
    ['API_KEY', KEY, 'api-key'],
    ['a file token', 'ncfg_reader', 'reader'],
    ['a token expiring tomorrow', 'ncfg_later', 'later'],
    ['a token expired today (UTC)', 'ncfg_old', null],
    ['an unknown token', 'ncfg_nobody', null],
    ["a token's hash itself", sha('ncfg_reader'), null],
  ];
  for (const [what, token, name] of TABLE) {
    it(`${what} -> ${name ?? 'refused'}`, () => {
      expect(set.authenticate(token)?.name ?? null).to.equal(name);
    });
  }

  it('20,000 entries: found by digest, and the set counts them with API_KEY', async () => {
    const many = new TokenSet([], KEY);
    await many.replaceInSlices(Array.from({ length: 20_000 }, (_, i) => entry(`c${i}`)));
    expect(many.size).to.equal(20_001);
    expect(many.authenticate('ncfg_c19999')?.name).to.equal('c19999');
    expect(many.authenticate(KEY)?.name).to.equal('api-key');
  });

  it('a sliced replace holds the set before until it is whole; a later replace wins over it', async () => {
    const tokens = new TokenSet([entry('before')], undefined);
    const building = tokens.replaceInSlices(Array.from({ length: 5000 }, (_, i) => entry(`c${i}`)));
    expect(tokens.authenticate('ncfg_before')?.name, 'while the new set is built').to.equal('before');
    tokens.replace([]); // the grace ended meanwhile: nothing named is accepted
    await building;
    expect(tokens.size).to.equal(0);
    expect(tokens.authenticate('ncfg_c0')).to.equal(null);
  });
});
