/**
 * A proposal branch's name read back (what GET /api/v1/proposals shows of each): the network and the
 * actor's part of every branch proposalBranchOf makes, and null for a branch netcfg did not make.
 */
import { expect } from 'chai';
import { requireNetworkId } from '../../../src/store/files/layout.js';
import { parseProposalBranch, proposalBranchOf } from '../../../src/store/proposals/proposal-name.js';
import type { Actor } from '../../../src/store/actor.js';

describe('store/proposals/proposal-name: a branch read back', () => {
  const cases: Array<{ actor: Actor; id: string }> = [
    { actor: { kind: 'token', name: 'relayer-eu' }, id: 'evm:sepolia' },
    { actor: { kind: 'token', name: 'relayer-eu' }, id: 'evm:base-sepolia' },
    { actor: { kind: 'token', name: 'a.b_c' }, id: 'a-b:c' },
    { actor: { kind: 'token', name: 'a.b_c' }, id: 'a:b-c' },
    { actor: { kind: 'token', name: 'x' }, id: 'my-family:name-with-dashes' },
    { actor: { kind: 'system', name: 'rpc-prober' }, id: 'solana:devnet' },
  ];
  for (const { actor, id } of cases) {
    it(`${actor.kind}:${actor.name} on ${id}`, () => {
      const branch = proposalBranchOf(actor, requireNetworkId(id));
      expect(parseProposalBranch(branch)).to.deep.equal({ actor: branch.split('/')[1], network: id });
    });
  }

  for (const branch of [
    'main',
    'netcfg/x',
    'netcfg/x/nodash',
    'netcfg/x/evm-',
    'other/x/evm-sepolia',
    'netcfg/x/evm-sepolia/more',
    'netcfg/x/EVM-sepolia',
  ]) {
    it(`${branch}: not netcfg's`, () => expect(parseProposalBranch(branch)).to.equal(null));
  }
});
