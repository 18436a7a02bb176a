/**
 * planEdit given the record served of the network: bytes it was made from (same hash, same path) are
 * parsed and not validated again, and the plan is the one made without it; any other bytes are validated.
 */
import { expect } from 'chai';
import { requireNetworkId } from '../../../src/store/files/layout.js';
import { planEdit, type EditPlan } from '../../../src/store/edit/network-edit.js';
import { parseNetworkFile } from '../../../src/store/validation/network-file.js';
import type { NetworkRecord } from '../../../src/store/network-record.js';
import { policyFromEnv } from '../../../src/config/index.js';

const policy = policyFromEnv({});
const id = requireNetworkId('evm:sepolia');
const GOOD =
  '# ours\nrpc_urls:\n  - https://a.example.com # first\n  - url: https://b.example.com\n    weight: 5\nchain_id: 11155111\n';
const OTHER = GOOD.replace('weight: 5', 'weight: 7');
const INVALID = 'rpc_urls: []\nchain_id: 11155111\n';
const CHANGE = { rpc_urls: ['https://a.example.com', { url: 'https://b.example.com', weight: 9 }] };

function servedOf(text: string, rel: string): NetworkRecord {
  const outcome = parseNetworkFile(text, id, rel, policy);
  if (!outcome.ok) throw new Error('not valid');
  return outcome.record;
}

const plan = (text: string, changes: Record<string, unknown>, served?: NetworkRecord): EditPlan =>
  planEdit(id, 'evm/sepolia.yaml', Buffer.from(text), changes, undefined, policy, served);

const CASES: Array<{ title: string; text: string; served: NetworkRecord; changes: Record<string, unknown> }> = [
  {
    title: 'served from these bytes, an edit',
    text: GOOD,
    served: servedOf(GOOD, 'evm/sepolia.yaml'),
    changes: CHANGE,
  },
  {
    title: 'served from these bytes, nothing changed',
    text: GOOD,
    served: servedOf(GOOD, 'evm/sepolia.yaml'),
    changes: {},
  },
  { title: 'served from other bytes', text: GOOD, served: servedOf(OTHER, 'evm/sepolia.yaml'), changes: CHANGE },
  {
    title: 'served from these bytes at the .yml path',
    text: GOOD,
    served: servedOf(GOOD, 'evm/sepolia.yml'),
    changes: CHANGE,
  },
  {
    title: 'the file made invalid since the version served',
    text: INVALID,
    served: servedOf(GOOD, 'evm/sepolia.yaml'),
    changes: CHANGE,
  },
];

describe('store/edit: planEdit with the record served', () => {
  for (const { title, text, served, changes } of CASES) {
    it(`${title}: the same plan as without it`, () => {
      const withServed = plan(text, changes, served);
      const without = plan(text, changes);
      expect(withServed.kind).to.equal(without.kind);
      if (withServed.kind === 'invalid' && without.kind === 'invalid')
        expect(withServed.refusal.message).to.equal(without.refusal.message);
      else expect(withServed).to.deep.equal(without);
    });
  }

  it('the file made invalid since the version served is refused, not edited', () => {
    const made = plan(INVALID, CHANGE, servedOf(GOOD, 'evm/sepolia.yaml'));
    expect(made.kind).to.equal('invalid');
  });

  it('an edit keeps the comments of the entries it keeps', () => {
    const made = plan(GOOD, CHANGE, servedOf(GOOD, 'evm/sepolia.yaml'));
    expect(made.kind === 'edit' && made.text).to.equal(GOOD.replace('weight: 5', 'weight: 9'));
  });
});
