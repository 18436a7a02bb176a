/**
 * RELAYER_SYNC_FILE's sync on the real thing: a real store on a real folder, and stand-in relayers
 * (real HTTP servers on loopback that behave as the relayer's network routes do, see
 * test/helpers/stand-in-relayer.ts), started and stopped here. Every wait has a deadline.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ANONYMOUS } from '../../../src/store/actor.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { RelayerSync } from '../../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../../src/relayer/sync/store-desired.js';
import type { TargetStatus } from '../../../src/relayer/sync/target-worker.js';
import { makeConfigDir, networkYaml, removeDir } from '../../helpers/fixtures.js';
import { startStandInRelayer, type StandInNetwork, type StandInRelayer } from '../../helpers/stand-in-relayer.js';
import { startStore } from '../../helpers/store.js';
import { within } from '../../helpers/deadline.js';
import { OPEN_POLICY } from '../../../src/store/validation/url-rules.js';
import { allowEvery } from '../../helpers/secret-lookup.js';

const KEY = 'relayer-key-0123456789abcdef';
const INTERVAL_MS = 300;
const FILES = {
  'evm/sepolia.yaml': networkYaml({ rpc_urls: ['https://sepolia-a.example.com'] }),
  'evm/holesky.yaml': networkYaml({ rpc_urls: ['https://holesky-a.example.com'] }),
  'solana/devnet.yaml': 'rpc_urls: [https://sol-a.example.com]\n',
};

/** What the relayer holds of the served networks (as it answers them), optionally with one changed. */
function relayerNetworks(store: NetworkStore, change: Record<string, string> = {}): StandInNetwork[] {
  return store
    .ids()
    .sort()
    .map((id) => {
      const view = JSON.parse(store.get(id).body).data as StandInNetwork;
      return change[id] ? { ...view, rpc_urls: [{ url: change[id] as string, weight: 100 }] } : view;
    });
}

/** The next state `sync` reports for `name` that `predicate` accepts. */
function nextStatus(sync: RelayerSync, name: string, predicate: (s: TargetStatus) => boolean): Promise<TargetStatus> {
  return new Promise((resolve) => {
    const off = sync.onChange((s) => {
      if (s.name === name && predicate(s)) {
        off();
        resolve(s);
      }
    });
  });
}

describe('relayer/sync: running relayers kept in sync (stand-in relayers on loopback)', () => {
  let root: string;
  let store: NetworkStore;
  let sync: RelayerSync | null;
  let relayers: StandInRelayer[];
  const logged: string[] = [];
  const log = {
    info: (f: object, m: string) => logged.push(JSON.stringify({ ...f, m })),
    warn: (f: object, m: string) => logged.push(JSON.stringify({ ...f, m })),
  };

  function startSync(
    targets: Array<{ name: string; relayer: StandInRelayer; key?: string; networks?: string[] | null }>,
  ): RelayerSync {
    sync = new RelayerSync(
      targets.map((t) => ({ name: t.name, url: t.relayer.url, apiKey: t.key ?? KEY, networks: t.networks ?? null })),
      desiredFromStore(store),
      { intervalMs: INTERVAL_MS, timeoutMs: 1000, maxBytes: 1 << 20, log },
    );
    sync.start();
    return sync;
  }

  beforeEach(async () => {
    root = makeConfigDir(FILES);
    store = await startStore(root);
    relayers = [];
    sync = null;
    logged.length = 0;
  });
  afterEach(async () => {
    await sync?.close();
    await Promise.all(relayers.map((r) => r.close()));
    await store.close();
    removeDir(root);
    expect(logged.join('\n'), 'a key in a log line').to.not.include(KEY);
  });

  it('a PATCH on netcfg reaches two relayers, as exactly {"rpc_urls": [...]} with each one\'s key; netcfg answered without waiting for them', async () => {
    relayers = [
      await startStandInRelayer(KEY, relayerNetworks(store)),
      await startStandInRelayer(KEY, relayerNetworks(store)),
    ];
    const s = startSync([
      { name: 'eu', relayer: relayers[0] as StandInRelayer },
      { name: 'us', relayer: relayers[1] as StandInRelayer },
    ]);
    await within(s.passNow(), 5000, 'the first pass');
    const heard = relayers.map((r) => r.nextPatch());
    await store.update('evm:sepolia', { rpc_urls: ['https://sepolia-b.example.com'] }, undefined, ANONYMOUS);
    for (const patch of await within(Promise.all(heard), 5000, 'both relayers PATCHed')) {
      expect(patch).to.deep.equal({
        id: 'evm:sepolia',
        body: { rpc_urls: [{ url: 'https://sepolia-b.example.com', weight: 100 }] },
      });
    }
    for (const r of relayers) {
      expect(r.networks.get('evm:sepolia')?.rpc_urls).to.deep.equal([
        { url: 'https://sepolia-b.example.com', weight: 100 },
      ]);
      expect(r.requests.every((q) => q.authorized)).to.equal(true);
      expect(r.networks.get('evm:sepolia')?.chain_id, 'the relayer keeps every other field').to.equal(11155111);
    }
  });

  it('a secret reference reaches the relayer as its value (relayer v1.8 reads no reference), never as its mask', async () => {
    const secret = 'https://sol-secret.example.com/v2/k3y';
    await store.close();
    writeFileSync(path.join(root, 'solana/devnet.yaml'), 'rpc_urls:\n  - type: env\n    value: SOL_SECRET\n');
    store = await startStore(root, { policy: { ...OPEN_POLICY, secrets: allowEvery({ SOL_SECRET: secret }) } });
    const held = relayerNetworks(store).map((n) =>
      n.id === 'solana:devnet' ? { ...n, rpc_urls: [{ url: secret, weight: 50 }] } : n,
    );
    relayers = [await startStandInRelayer(KEY, held)]; // the value, at another weight: drift
    const heard = (relayers[0] as StandInRelayer).nextPatch();
    const s = startSync([{ name: 'eu', relayer: relayers[0] as StandInRelayer }]);
    const drift = await within(
      nextStatus(s, 'eu', (st) => st.state === 'drifted'),
      5000,
      'the drift reported',
    );
    expect(
      drift.networks.find((n) => n.id === 'solana:devnet')?.relayer,
      'what the relayer held, its value masked',
    ).to.deep.equal({ rpc_urls: [{ url: 'https://sol-secret.example.com/v2/***', weight: 50 }] });
    expect((await within(heard, 5000, 'the drift closed')).body).to.deep.equal({
      rpc_urls: [{ url: secret, weight: 100 }],
    });
    expect(logged.join('\n'), 'the value in a log line').to.not.include('k3y');
  });

  it('a file edited on disk reaches the relayer', async () => {
    relayers = [await startStandInRelayer(KEY, relayerNetworks(store))];
    const s = startSync([{ name: 'eu', relayer: relayers[0] as StandInRelayer }]);
    await within(s.passNow(), 5000, 'the first pass');
    const heard = (relayers[0] as StandInRelayer).nextPatch();
    writeFileSync(path.join(root, 'solana/devnet.yaml'), 'rpc_urls: [https://sol-b.example.com]\n');
    expect((await within(heard, 5000, 'the edit sent')).body).to.deep.equal({
      rpc_urls: [{ url: 'https://sol-b.example.com', weight: 100 }],
    });
  });

  it("a value changed on the relayer behind netcfg's back is drift: reported and set back within two intervals", async () => {
    relayers = [
      await startStandInRelayer(KEY, relayerNetworks(store, { 'evm:holesky': 'https://someone-else.example.com' })),
    ];
    const s = startSync([{ name: 'eu', relayer: relayers[0] as StandInRelayer }]);
    const drift = nextStatus(s, 'eu', (st) => st.state === 'drifted');
    const restored = (relayers[0] as StandInRelayer).nextPatch();
    const seen = await within(drift, 2 * INTERVAL_MS + 2000, 'the drift reported');
    expect(seen.networks.find((n) => n.id === 'evm:holesky')).to.deep.include({
      state: 'drifted',
      fields: ['rpc_urls'],
      relayer: { rpc_urls: [{ url: 'https://someone-else.example.com/', weight: 100 }] },
    }); // redacted as every URL shown
    expect((await within(restored, 2 * INTERVAL_MS + 2000, 'the drift closed')).id).to.equal('evm:holesky');
    await within(
      nextStatus(s, 'eu', (st) => st.state === 'in_sync'),
      2 * INTERVAL_MS + 2000,
      'in sync again',
    );
    expect(logged.some((l) => l.includes('drift found') && l.includes('evm:holesky'))).to.equal(true);
  });

  it('a relayer down during a PATCH (netcfg still answers at once), then back with stale values, converges', async () => {
    const first = await startStandInRelayer(KEY, relayerNetworks(store));
    const port = first.port;
    await first.close();
    const s = startSync([{ name: 'eu', relayer: first }]);
    await within(s.passNow(), 5000, 'a pass against a relayer that is down');
    expect(s.status()[0]).to.include({ state: 'failing' });
    expect(s.status()[0]?.last_error).to.include('cannot be reached');
    await within(
      store.update('evm:sepolia', { rpc_urls: ['https://sepolia-c.example.com'] }, undefined, ANONYMOUS),
      2000,
      "netcfg's own PATCH",
    );
    const back = await startStandInRelayer(
      KEY,
      relayerNetworks(store, { 'evm:sepolia': 'https://sepolia-a.example.com' }),
      port,
    );
    relayers = [back];
    const patch = await within(back.nextPatch(), 2 * INTERVAL_MS + 3000, 'the relayer brought up to date');
    expect(patch.body).to.deep.equal({ rpc_urls: [{ url: 'https://sepolia-c.example.com', weight: 100 }] });
    await within(
      nextStatus(s, 'eu', (st) => st.state === 'in_sync'),
      2 * INTERVAL_MS + 2000,
      'in sync again',
    );
  });

  it('a wrong key is reported per target, and nothing is changed on the relayer', async () => {
    relayers = [await startStandInRelayer(KEY, relayerNetworks(store))];
    const s = startSync([{ name: 'eu', relayer: relayers[0] as StandInRelayer, key: 'wrong-key-0123456789' }]);
    await within(s.passNow(), 5000, 'the first pass');
    const status = s.status()[0];
    expect(status?.state).to.equal('failing');
    expect(status?.last_error).to.include('refused the key (401)');
    expect(JSON.stringify(s.status())).to.not.include('wrong-key-0123456789');
  });

  it('a relayer scoped to evm:* never receives another family; a network it lacks is missing, one only it has is extra', async () => {
    const held = relayerNetworks(store).filter((n) => n.id !== 'evm:holesky');
    relayers = [
      await startStandInRelayer(KEY, [
        ...held,
        { id: 'evm:only-here', rpc_urls: [{ url: 'https://x.example.com', weight: 100 }] },
      ]),
    ];
    const s = startSync([{ name: 'eu', relayer: relayers[0] as StandInRelayer, networks: ['evm:*'] }]);
    await within(s.passNow(), 5000, 'the first pass');
    const heard = (relayers[0] as StandInRelayer).nextPatch();
    await store.update('solana:devnet', { rpc_urls: ['https://sol-c.example.com'] }, undefined, ANONYMOUS);
    await store.update('evm:sepolia', { rpc_urls: ['https://sepolia-d.example.com'] }, undefined, ANONYMOUS);
    expect((await within(heard, 5000, 'the evm change sent')).id, 'the first PATCH it hears').to.equal('evm:sepolia');
    await within(s.passNow(), 5000, 'a pass');
    const status = s.status()[0];
    expect(status?.counts).to.deep.equal({ in_sync: 1, drifted: 0, stale: 0, missing: 1, failing: 0, extra: 1 });
    expect(status?.extra).to.deep.equal(['evm:only-here']);
    expect(status?.networks.map((n) => [n.id, n.state])).to.deep.equal([['evm:holesky', 'missing']]);
    expect(
      (relayers[0] as StandInRelayer).requests.filter((q) => q.method === 'PATCH').map((q) => q.path),
    ).to.deep.equal(['/api/v1/networks/evm%3Asepolia']);
  });
});
