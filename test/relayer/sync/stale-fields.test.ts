/**
 * Every field a relayer answers is compared (its NetworkResponse, src/models/network/response.rs at
 * v1.8.0: rpc_urls, explorer_urls, average_blocktime_ms, is_testnet, tags, chain_id,
 * required_confirmations, features, symbol, passphrase, horizon_url; not gas_price_cache, which it
 * does not answer). A table of differences on a stand-in relayer (test/helpers/stand-in-relayer.ts,
 * which answers every field it holds, as network.rs does): rpc_urls is drift, set back by PATCH;
 * any other field is stale, never in sync, with its fields, both values and the remedy its API
 * leaves (docs/configuration/storage.mdx); nothing is PATCHed for it.
 */
import { expect } from 'chai';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { RelayerSync } from '../../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../../src/relayer/sync/store-desired.js';
import { makeConfigDir, removeDir } from '../../helpers/fixtures.js';
import { startStandInRelayer, type StandInNetwork, type StandInRelayer } from '../../helpers/stand-in-relayer.js';
import { startStore } from '../../helpers/store.js';
import { within } from '../../helpers/deadline.js';
import { redactText } from '../../../src/redact.js';

/** A value as the status shows it: every URL in it redacted. */
const shown = (value: unknown): unknown => JSON.parse(redactText(JSON.stringify(value ?? null))) as unknown;

const KEY = 'relayer-key-0123456789abcdef';
const FILES = {
  'evm/sepolia.yaml': [
    'rpc_urls: [https://sepolia-a.example.com]',
    'explorer_urls: [https://sepolia.etherscan.io]',
    'average_blocktime_ms: 12000',
    'is_testnet: true',
    'tags: [deprecated]',
    'chain_id: 11155111',
    'required_confirmations: 1',
    'features: [eip1559]',
    'symbol: ETH',
    '',
  ].join('\n'),
  'stellar/testnet.yaml':
    'rpc_urls: [https://soroban-testnet.stellar.org]\npassphrase: Test SDF Network ; September 2015\nhorizon_url: https://horizon-testnet.stellar.org\n',
};

interface Case {
  name: string;
  id: string;
  /** The relayer's copy of the served network, changed. */
  change: (n: StandInNetwork) => StandInNetwork;
  state: 'stale' | 'drifted' | 'in_sync';
  fields: string[];
}

const CASES: Case[] = [
  {
    name: 'required_confirmations 3 where netcfg has 1',
    id: 'evm:sepolia',
    change: (n) => ({ ...n, required_confirmations: 3 }),
    state: 'stale',
    fields: ['required_confirmations'],
  },
  {
    name: 'another chain_id',
    id: 'evm:sepolia',
    change: (n) => ({ ...n, chain_id: 1 }),
    state: 'stale',
    fields: ['chain_id'],
  },
  {
    name: 'another symbol',
    id: 'evm:sepolia',
    change: (n) => ({ ...n, symbol: 'SEP' }),
    state: 'stale',
    fields: ['symbol'],
  },
  {
    name: 'other tags',
    id: 'evm:sepolia',
    change: (n) => ({ ...n, tags: ['rollup'] }),
    state: 'stale',
    fields: ['tags'],
  },
  {
    name: 'features absent',
    id: 'evm:sepolia',
    change: ({ features: _, ...n }) => n as StandInNetwork,
    state: 'stale',
    fields: ['features'],
  },
  {
    name: 'another explorer',
    id: 'evm:sepolia',
    change: (n) => ({ ...n, explorer_urls: ['https://other.example.com'] }),
    state: 'stale',
    fields: ['explorer_urls'],
  },
  {
    name: 'another block time',
    id: 'evm:sepolia',
    change: (n) => ({ ...n, average_blocktime_ms: 2000 }),
    state: 'stale',
    fields: ['average_blocktime_ms'],
  },
  {
    name: 'is_testnet false',
    id: 'evm:sepolia',
    change: (n) => ({ ...n, is_testnet: false }),
    state: 'stale',
    fields: ['is_testnet'],
  },
  {
    name: 'another passphrase',
    id: 'stellar:testnet',
    change: (n) => ({ ...n, passphrase: 'Public Global Stellar Network ; September 2015' }),
    state: 'stale',
    fields: ['passphrase'],
  },
  {
    name: 'another horizon_url',
    id: 'stellar:testnet',
    change: (n) => ({ ...n, horizon_url: 'https://horizon.stellar.org' }),
    state: 'stale',
    fields: ['horizon_url'],
  },
  {
    name: 'rpc_urls and symbol',
    id: 'evm:sepolia',
    change: (n) => ({ ...n, symbol: 'SEP', rpc_urls: [{ url: 'https://else.example.com', weight: 100 }] }),
    state: 'drifted',
    fields: ['rpc_urls', 'symbol'],
  },
  {
    name: 'gas_price_cache only (never answered, never compared)',
    id: 'evm:sepolia',
    change: (n) => ({ ...n, gas_price_cache: { enabled: true } }),
    state: 'in_sync',
    fields: [],
  },
];

describe('relayer/sync: every answered field compared (stand-in relayer on loopback)', () => {
  let root: string;
  let store: NetworkStore;
  let relayer: StandInRelayer | null = null;
  let sync: RelayerSync | null = null;
  beforeEach(async () => {
    root = makeConfigDir(FILES);
    store = await startStore(root);
  });
  afterEach(async () => {
    await sync?.close();
    await relayer?.close();
    [sync, relayer] = [null, null];
    await store.close();
    removeDir(root);
  });

  for (const c of CASES) {
    it(`${c.name}: ${c.state}${c.fields.length ? ` (${c.fields.join(', ')})` : ''}`, async () => {
      const held = store.ids().map((id) => JSON.parse(store.get(id).body).data as StandInNetwork);
      relayer = await startStandInRelayer(
        KEY,
        held.map((n) => (n.id === c.id ? c.change(n) : n)),
      );
      sync = new RelayerSync([{ name: 'eu', url: relayer.url, apiKey: KEY, networks: null }], desiredFromStore(store), {
        intervalMs: 60_000,
        timeoutMs: 1000,
        maxBytes: 1 << 20,
        log: { info: () => undefined, warn: () => undefined },
      });
      await within(sync.passNow(), 5000, 'a pass');
      const status = sync.status()[0];
      const network = status?.networks.find((n) => n.id === c.id);
      if (c.state === 'in_sync') {
        expect(network).to.equal(undefined);
        expect(status?.state).to.equal('in_sync');
        return;
      }
      expect(network?.state).to.equal(c.state);
      expect(network?.fields).to.deep.equal(c.fields);
      const stale = c.fields.filter((f) => f !== 'rpc_urls');
      const finding = sync.detail('eu')?.findings.find((f) => f.kind === 'stale' && f.network === c.id);
      expect(finding?.fields).to.deep.equal(stale);
      const original = held.find((n) => n.id === c.id) as Record<string, unknown>;
      const changed = c.change(structuredClone(original) as StandInNetwork) as Record<string, unknown>;
      for (const f of stale) {
        expect((finding?.relayer_value as Record<string, unknown>)[f], `the relayer's ${f}`).to.deep.equal(
          shown(changed[f]),
        );
        expect((finding?.netcfg_value as Record<string, unknown>)[f], `netcfg's ${f}`).to.deep.equal(
          shown(original[f]),
        );
      }
      expect(network?.error)
        .to.include('its API cannot change this')
        .and.include('RESET_STORAGE_ON_START=true')
        .and.include('deletes all its stored data');
      if (c.state === 'stale') {
        expect(status?.state).to.equal('stale');
        expect(
          relayer.requests.filter((q) => q.method === 'PATCH'),
          'nothing its API could change',
        ).to.deep.equal([]);
      } else {
        await within(relayer.nextPatch(), 5000, 'the drift set back');
        await within(sync.passNow(), 5000, 'a pass after');
        expect(
          sync.status()[0]?.networks.find((n) => n.id === c.id),
          'still stale after the PATCH',
        ).to.deep.include({ state: 'stale', fields: stale });
      }
    });
  }

  it('a network the relayer lacks is missing, with the remedy for in-memory and Redis storage', async () => {
    relayer = await startStandInRelayer(KEY, []);
    sync = new RelayerSync([{ name: 'eu', url: relayer.url, apiKey: KEY, networks: null }], desiredFromStore(store), {
      intervalMs: 60_000,
      timeoutMs: 1000,
      maxBytes: 1 << 20,
      log: { info: () => undefined, warn: () => undefined },
    });
    await within(sync.passNow(), 5000, 'a pass');
    const missing = sync.status()[0]?.networks.find((n) => n.id === 'evm:sepolia');
    expect(missing?.state).to.equal('missing');
    expect(missing?.error)
      .to.include('with in-memory storage, at its next restart')
      .and.include('only at a restart with RESET_STORAGE_ON_START=true');
  });
});
