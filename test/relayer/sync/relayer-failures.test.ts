/**
 * The relayer sync when a relayer misbehaves, on a real store and stand-in relayers on loopback
 * (test/helpers/stand-in-relayer.ts): each failure is reported per relayer and per network with
 * its reason, never blocks netcfg or another relayer, and heals; changes made while a PATCH is in
 * flight are coalesced into the newest value.
 */
import { expect } from 'chai';
import { ANONYMOUS } from '../../../src/store/actor.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { RelayerSync } from '../../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../../src/relayer/sync/store-desired.js';
import { makeConfigDir, networkYaml, removeDir } from '../../helpers/fixtures.js';
import { startStandInRelayer, type StandInNetwork, type StandInRelayer } from '../../helpers/stand-in-relayer.js';
import { startStore } from '../../helpers/store.js';
import { within } from '../../helpers/deadline.js';

const KEY = 'relayer-key-0123456789abcdef';
const TIMEOUT_MS = 300;
const silent = { info: () => undefined, warn: () => undefined };

describe('relayer/sync: a relayer that misbehaves (stand-in relayers on loopback)', () => {
  let root: string;
  let store: NetworkStore;
  let sync: RelayerSync;
  let bad: StandInRelayer;
  let good: StandInRelayer;

  const networks = (): StandInNetwork[] =>
    store.ids().map((id) => JSON.parse(store.get(id).body).data as StandInNetwork);

  beforeEach(async () => {
    root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: ['https://sepolia-a.example.com'] }) });
    store = await startStore(root);
    bad = await startStandInRelayer(KEY, networks());
    good = await startStandInRelayer(KEY, networks());
    sync = new RelayerSync(
      [
        { name: 'bad', url: bad.url, apiKey: KEY, networks: null },
        { name: 'good', url: good.url, apiKey: KEY, networks: null },
      ],
      desiredFromStore(store),
      { intervalMs: 60_000, timeoutMs: TIMEOUT_MS, maxBytes: 1 << 20, log: silent },
    );
    sync.start();
    await within(sync.passNow(), 5000, 'the first pass');
  });
  afterEach(async () => {
    await sync.close();
    await Promise.all([bad.close(), good.close()]);
    await store.close();
    removeDir(root);
  });

  const FAILURES: Array<[string, StandInRelayer['mode'], string]> = [
    ['slow (no answer within the deadline)', 'stall', `did not answer PATCH within ${TIMEOUT_MS} ms`],
    ['failing inside (500)', 'error500', 'failed (500): Internal Server Error: Failed to retrieve network: redis down'],
    [
      'refusing the value (400, its sentence shown)',
      'refuse-patch',
      'refused the PATCH (400): Invalid RPC URL configuration: host not allowed by RPC_ALLOWED_HOSTS',
    ],
  ];
  for (const [name, mode, reason] of FAILURES) {
    it(`a relayer ${name}: reported at the network with its reason; the other relayer gets the change at once`, async () => {
      bad.mode = mode;
      const reached = good.nextPatch();
      const failing = within(
        new Promise<ReturnType<RelayerSync['status']>[number]>((resolve) => {
          const off = sync.onChange((s) => s.name === 'bad' && s.state === 'failing' && (off(), resolve(s)));
        }),
        5000,
        'the bad relayer reported',
      );
      const started = performance.now();
      await store.update('evm:sepolia', { rpc_urls: ['https://sepolia-b.example.com'] }, undefined, ANONYMOUS);
      expect(performance.now() - started, "netcfg's own PATCH does not wait for any relayer").to.be.lessThan(
        TIMEOUT_MS,
      );
      await within(reached, 3000, 'the good relayer PATCHed');
      const reported = await failing;
      expect(reported.networks[0]).to.include({ id: 'evm:sepolia', state: 'failing' });
      expect(reported.networks[0]?.error).to.include(reason);
      bad.mode = 'normal';
      const healed = bad.nextPatch();
      await within(healed, 5000, 'the retry after the backoff');
      expect(bad.networks.get('evm:sepolia')?.rpc_urls).to.deep.equal([
        { url: 'https://sepolia-b.example.com', weight: 100 },
      ]);
    });
  }

  it('changes made while a PATCH is in flight are coalesced: the relayer gets the newest value, not every one', async () => {
    let open: () => void = () => undefined;
    good.patchGate = new Promise((resolve) => (open = resolve));
    const first = good.nextPatch();
    for (const n of [1, 2, 3, 4, 5])
      await store.update('evm:sepolia', { rpc_urls: [`https://sepolia-${n}.example.com`] }, undefined, ANONYMOUS);
    good.patchGate = null;
    open();
    await within(first, 3000, 'the PATCH in flight');
    await within(
      (async () => {
        while (
          JSON.stringify(good.networks.get('evm:sepolia')?.rpc_urls) !==
          JSON.stringify([{ url: 'https://sepolia-5.example.com', weight: 100 }])
        )
          await good.nextPatch();
      })(),
      3000,
      'the newest value',
    );
    const patches = good.requests.filter((q) => q.method === 'PATCH');
    expect(patches.length, 'one in flight, then the newest').to.equal(2);
  });
});
