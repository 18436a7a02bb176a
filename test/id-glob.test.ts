/**
 * Globs over network ids, as a table: what each matches and what it leaves.
 */
import { expect } from 'chai';
import { ID_GLOB, matchesAny } from '../src/id-glob.js';

describe('id-glob', () => {
  const CASES: Array<[string[], string, boolean]> = [
    [['evm:*'], 'evm:sepolia', true],
    [['evm:*'], 'evm2:sepolia', false],
    [['*:mainnet'], 'stellar:mainnet', true],
    [['*:*-testnet'], 'solana:x-testnet', true],
    [['solana:mainnet-beta'], 'solana:mainnet-beta', true],
    [['solana:mainnet-beta'], 'solana:mainnet-beta2', false],
    [['evm:sep*'], 'evm:sepolia', true],
    [[], 'evm:sepolia', false],
  ];
  for (const [globs, id, expected] of CASES) {
    it(`${JSON.stringify(globs)} ${expected ? 'matches' : 'leaves'} ${id}`, () =>
      expect(matchesAny(globs, id)).to.equal(expected));
  }
  for (const [glob, ok] of [
    ['evm:*', true],
    ['evm', false],
    ['EVM:*', false],
    ['evm:.*', false],
    ['*:*', true],
  ] as const) {
    it(`${glob} is ${ok ? '' : 'not '}a glob of ids`, () => expect(ID_GLOB.test(glob)).to.equal(ok));
  }
});
