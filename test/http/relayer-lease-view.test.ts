/**
 * What the lease looks like from outside (two replicas' apps over one shared folder, the lease in
 * its `.locks/`): GET /api/v1/relayers answers `lease`, readiness' `relayers` component says it,
 * and /metrics has netcfg_relayer_lease_held, 1 on the holder and 0 on the replica standing by.
 */
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { Lease } from '../../src/relayer/lease/lease.js';
import { RelayerSync } from '../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../src/relayer/sync/store-desired.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { valueOf } from '../helpers/exposition.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startStore } from '../helpers/store.js';
import { listenApp } from '../helpers/write-support.js';

const log = { info: () => undefined, warn: () => undefined };

describe('http: the relayer lease in GET /api/v1/relayers, readiness and /metrics (two apps, one folder)', () => {
  let root: string;
  const opened: Array<{
    store: NetworkStore;
    sync: RelayerSync;
    lease: Lease;
    app: { url: string; close(): Promise<void> };
  }> = [];

  afterEach(async () => {
    for (const o of opened.splice(0)) {
      await o.sync.close();
      await o.lease.close();
      await o.app.close();
      await o.store.close();
    }
    removeDir(root);
  });

  it('the holder says it holds, the other names the holder; neither shows a key', async () => {
    root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml() });
    for (const replica of ['eu-1', 'eu-2']) {
      const store = await startStore(root);
      const lease = new Lease({ leaseMs: 60_000, replica, callMs: 1000, storage: store.relayerLease(), log });
      await lease.step();
      const target = { name: 'eu', url: 'http://127.0.0.1:9', apiKey: 'relayer-key-0123456789', networks: null };
      const sync = new RelayerSync([target], desiredFromStore(store), {
        intervalMs: 60_000,
        timeoutMs: 1000,
        maxBytes: 1 << 20,
        log,
        speaker: lease,
      });
      const app = await listenApp(
        createApp(store, { relayers: sync, metrics: new Metrics({ store, relayers: sync }) }),
      );
      opened.push({ store, sync, lease, app });
    }
    const rows: Array<[number, string, number]> = [
      [0, 'eu-1', 1],
      [1, 'eu-2', 0],
    ];
    for (const [i, me, held] of rows) {
      const { url } = opened[i]!.app;
      const body = (await (await fetch(`${url}/api/v1/relayers`)).json()) as {
        lease: { holder: string; this_replica: string; expires_at: string };
      };
      expect(body.lease).to.include({ holder: 'eu-1', this_replica: me });
      expect(Date.parse(body.lease.expires_at)).to.be.greaterThan(Date.now());
      const ready = (await (await fetch(`${url}/api/v1/ready`)).json()) as {
        components: { relayers: { lease: unknown } };
      };
      expect(ready.components.relayers.lease).to.deep.equal(body.lease);
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(valueOf(text, 'netcfg_relayer_lease_held'), me).to.equal(held);
      expect(text).not.to.include('relayer-key-0123456789');
    }
  });
});
