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
/**
 * The call deadline: short only where a relayer that never answers is the case, and there long enough for the
 * stand-in's own answers on a loaded machine; elsewhere out of reach, as PATCHes are held at gates for as long as the
 * test takes (a deadline passing mid-test would be a retry the test did not ask for).
 */
const STALL_TIMEOUT_MS = 2000;
const TIMEOUT_MS = 60_000;
const silent = { info: () => undefined, warn: () => undefined };

describe('relayer/sync: a relayer that misbehaves (stand-in relayers on loopback)', () => {
  let root: string;
  let store: NetworkStore;
  let sync: RelayerSync;
  let bad: StandInRelayer;
  let good: StandInRelayer;

  const networks = (): StandInNetwork[] =>
    store.ids().map((id) => JSON.parse(store.get(id).body).data as StandInNetwork);

  beforeEach(async function () {
    root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: ['https://sepolia-a.example.com'] }) });
    store = await startStore(root);
    bad = await startStandInRelayer(KEY, networks());
    good = await startStandInRelayer(KEY, networks());
    const timeoutMs = this.currentTest?.title.includes('slow') ? STALL_TIMEOUT_MS : TIMEOUT_MS;
    sync = new RelayerSync(
      [
        { name: 'bad', url: bad.url, apiKey: KEY, networks: null },
        { name: 'good', url: good.url, apiKey: KEY, networks: null },
      ],
      desiredFromStore(store),
      { intervalMs: 60_000, timeoutMs, maxBytes: 1 << 20, log: silent },
    );
    sync.start();
    await within(sync.passNow(), 15_000, 'the first pass');
    // Each case begins from two relayers in sync: a failure it waits for is its own, not the setup's.
    expect(
      sync.status().map((s) => [s.name, s.state]),
      'after the first pass',
    ).to.deep.equal([
      ['bad', 'in_sync'],
      ['good', 'in_sync'],
    ]);
  });
  afterEach(async () => {
    await sync.close();
    await Promise.all([bad.close(), good.close()]);
    await store.close();
    removeDir(root);
  });

  const FAILURES: Array<[string, StandInRelayer['mode'], string]> = [
    ['slow (no answer within the deadline)', 'stall', `did not answer PATCH within ${STALL_TIMEOUT_MS} ms`],
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
        15_000,
        'the bad relayer reported',
      );
      // The good relayer holds every PATCH until netcfg's own write has returned: a write that waited for any
      // relayer would never return (a gate, not a clock: a loaded machine makes any write slow).
      let open: () => void = () => undefined;
      good.patchGate = new Promise((resolve) => (open = resolve));
      const wrote = store.update('evm:sepolia', { rpc_urls: ['https://sepolia-b.example.com'] }, undefined, ANONYMOUS);
      await within(wrote, 10_000, "netcfg's own PATCH, while the relayers' are held or failing");
      good.patchGate = null;
      open();
      await within(reached, 10_000, 'the good relayer PATCHed');
      const reported = await failing;
      expect(reported.networks[0]).to.include({ id: 'evm:sepolia', state: 'failing' });
      expect(reported.networks[0]?.error).to.include(reason);
      bad.mode = 'normal';
      const healed = bad.nextPatch();
      await within(healed, 15_000, 'the retry after the backoff');
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
    await within(first, 10_000, 'the PATCH in flight');
    await within(
      (async () => {
        while (
          JSON.stringify(good.networks.get('evm:sepolia')?.rpc_urls) !==
          JSON.stringify([{ url: 'https://sepolia-5.example.com', weight: 100 }])
        )
          await good.nextPatch();
      })(),
      10_000,
      'the newest value',
    );
    const patches = good.requests.filter((q) => q.method === 'PATCH');
    expect(patches.length, 'one in flight, then the newest').to.equal(2);
  });
});
