/**
 * The relayer's loader rules, as a table: each networks document (written for these tests in the
 * relayer's documented format, src/config/config_file/network/ at v1.8.0) either resolves to the
 * networks the relayer would hold, or is refused at the line and column that cause it.
 */
import { expect } from 'chai';
import { readRelayerSource } from '../../../src/relayer/format/relayer-source.js';
import { resolveNetworks } from '../../../src/relayer/format/resolve.js';

const evm = (network: string, extra: Record<string, unknown> = {}) => ({
  type: 'evm',
  network,
  chain_id: 1,
  required_confirmations: 1,
  symbol: 'ETH',
  rpc_urls: ['https://a.example.com'],
  ...extra,
});

function resolve(networks: unknown[]) {
  // One entry per line: a problem's line says which entry it is (line 2 is the first).
  const text = `{"networks": [\n${networks.map((n) => JSON.stringify(n)).join(',\n')}\n]}`;
  const source = readRelayerSource('evm.json', text);
  return resolveNetworks([
    { source, pointer: '/networks', entries: (source.json as { networks: unknown[] }).networks },
  ]);
}

describe('relayer/format/resolve: inheritance as the relayer resolves it', () => {
  it("a child: its rpc_urls replace the parent's; tags and features are the parent's plus its new ones; other fields its own, else the parent's", () => {
    const { networks, problems } = resolve([
      evm('base', {
        tags: ['a', 'b'],
        features: ['eip1559'],
        explorer_urls: ['https://scan.example.com'],
        average_blocktime_ms: 12000,
      }),
      {
        type: 'evm',
        network: 'child',
        from: 'base',
        chain_id: 5,
        rpc_urls: [{ url: 'https://c.example.com', weight: 10 }],
        tags: ['b', 'c'],
        features: ['optimism'],
      },
    ]);
    expect(problems).to.deep.equal([]);
    const child = networks.find((n) => n.name === 'child');
    expect(child?.parent).to.equal('base');
    expect(child?.fields).to.deep.equal({
      rpc_urls: [{ url: 'https://c.example.com', weight: 10 }],
      explorer_urls: ['https://scan.example.com'],
      average_blocktime_ms: 12000,
      tags: ['a', 'b', 'c'],
      chain_id: 5,
      required_confirmations: 1,
      features: ['eip1559', 'optimism'],
      symbol: 'ETH',
    });
  });

  it('a chain of from is followed (grandchild sees the grandparent through the parent)', () => {
    const { networks, problems } = resolve([
      evm('a', { tags: ['x'] }),
      { type: 'evm', network: 'b', from: 'a', tags: ['y'] },
      { type: 'evm', network: 'c', from: 'b', chain_id: 9 },
    ]);
    expect(problems).to.deep.equal([]);
    expect(networks.find((n) => n.name === 'c')?.fields)
      .to.include({ chain_id: 9, symbol: 'ETH' })
      .and.deep.include({ tags: ['x', 'y'] });
  });

  it('names are unique per type only: an evm and a stellar network may share one', () => {
    const { networks, problems } = resolve([
      evm('mainnet'),
      { type: 'stellar', network: 'mainnet', rpc_urls: ['https://h.example.com'] },
    ]);
    expect(problems).to.deep.equal([]);
    expect(networks.map((n) => `${n.type}:${n.name}`)).to.deep.equal(['evm:mainnet', 'stellar:mainnet']);
  });

  const REFUSED: Array<[string, unknown[], number, string]> = [
    [
      'from naming no network',
      [evm('a'), { type: 'evm', network: 'b', from: 'nope' }],
      3,
      "inherits from non-existent network 'nope'",
    ],
    [
      'from naming a network of another type',
      [
        { type: 'stellar', network: 'x', rpc_urls: ['https://h.example.com'] },
        { type: 'evm', network: 'b', from: 'x' },
      ],
      3,
      'which is a stellar network',
    ],
    [
      'an inheritance loop',
      [
        { type: 'evm', network: 'a', from: 'b' },
        { type: 'evm', network: 'b', from: 'a' },
      ],
      2,
      'circular inheritance',
    ],
    ['a network inheriting from itself', [{ type: 'evm', network: 'a', from: 'a' }], 2, 'cannot inherit from itself'],
    [
      'a duplicate network of one type',
      [evm('a'), evm('a')],
      3,
      "evm network 'a' is defined twice (first at evm.json:2:1)",
    ],
    ['a base network without rpc_urls', [{ type: 'solana', network: 's' }], 2, 'has no rpc_urls'],
    ['a base network with empty rpc_urls', [{ type: 'solana', network: 's', rpc_urls: [] }], 2, 'has no rpc_urls'],
    [
      'an evm network without chain_id',
      [{ type: 'evm', network: 'e', rpc_urls: ['https://a.example.com'], required_confirmations: 1, symbol: 'E' }],
      2,
      'has no chain_id',
    ],
    ['an evm network with an empty symbol', [evm('e', { symbol: '' })], 2, 'has no symbol'],
    [
      'a child whose chain has no required_confirmations',
      [
        { type: 'evm', network: 'p', rpc_urls: ['https://a.example.com'], chain_id: 1, symbol: 'E' },
        { type: 'evm', network: 'c', from: 'p' },
      ],
      2,
      'has no required_confirmations',
    ],
    [
      'a URL that is not http(s)',
      [evm('e', { rpc_urls: ['wss://a.example.com'] })],
      2,
      'must start with http:// or https://',
    ],
    [
      'a weight over 100',
      [evm('e', { rpc_urls: [{ url: 'https://a.example.com', weight: 101 }] })],
      2,
      'rpc_urls.0.weight must be a whole number from 0 to 100',
    ],
    ['a negative weight', [evm('e', { rpc_urls: [{ url: 'https://a.example.com', weight: -1 }] })], 2, 'from 0 to 100'],
    [
      'a field the relayer does not know',
      [evm('e', { genesis_hash: 'x' })],
      2,
      "genesis_hash is not a field of the relayer's evm networks",
    ],
    [
      'an evm field on a solana network',
      [{ type: 'solana', network: 's', rpc_urls: ['https://a.example.com'], chain_id: 1 }],
      2,
      "chain_id is not a field of the relayer's solana networks",
    ],
    [
      'an unknown type',
      [{ type: 'cosmos', network: 'hub', rpc_urls: ['https://a.example.com'] }],
      2,
      'type must be one of evm, solana, stellar',
    ],
    [
      'a network without its name',
      [{ type: 'evm', rpc_urls: ['https://a.example.com'] }],
      2,
      'network must be a non-empty string',
    ],
    ['a wrong type of value', [evm('e', { chain_id: 'one' })], 2, 'chain_id must be a whole number'],
    [
      'a gas price cache that expires before it is stale',
      [evm('e', { gas_price_cache: { stale_after_ms: 50000 } })],
      2,
      'expire_after_ms must be greater than stale_after_ms',
    ],
    [
      'an explorer URL that does not parse',
      [evm('e', { explorer_urls: ['not a url'] })],
      2,
      'explorer_urls.0 is not a URL',
    ],
  ];
  for (const [name, networks, line, message] of REFUSED) {
    it(`refuses ${name}, at its line`, () => {
      const { problems } = resolve(networks);
      expect(problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('\n'))
        .to.include(`evm.json:${line}: `)
        .and.include(message);
    });
  }

  it("a child of a refused network says nothing more: the parent's problem is the one to fix", () => {
    const { problems } = resolve([evm('a', { bogus: 1 }), { type: 'evm', network: 'b', from: 'a' }]);
    expect(problems.map((p) => p.message)).to.deep.equal([
      "bogus is not a field of the relayer's evm networks (it refuses unknown fields)",
    ]);
  });
});

describe('relayer/format/relayer-source: JSON as serde_json reads it, located', () => {
  const CASES: Array<[string, string, string]> = [
    ['a trailing comma', '{"networks": [\n  {"type": "evm"},\n]}', 'evm.json:3:'],
    ['a comment', '{"networks": []} // no', 'evm.json:1:'],
    ['a duplicate key', '{"networks": [\n  {"type": "evm", "type": "solana"}\n]}', 'evm.json:2:'],
    ['a cut-off file', '{"networks": [', 'evm.json:1:'],
  ];
  for (const [name, text, where] of CASES) {
    it(`refuses ${name} at its place`, () => {
      const source = readRelayerSource('evm.json', text);
      expect(source.problems).to.have.length(1);
      const [p] = source.problems;
      expect(`${p?.file}:${p?.line}:`).to.equal(where);
    });
  }
});
