/**
 * Operators in control of the relayer sync, on a real listening server over a real folder and
 * stand-in relayers on loopback (test/helpers/stand-in-relayer.ts, PATCH as network.rs does at
 * v1.8.0): the findings route, "sync now" (and its 409 from a replica that does not hold the lease),
 * self_heal: false, `relayer_sync` events with the network and kind for admin tokens only, a target
 * that is netcfg itself, and an api_key_env naming one of netcfg's own settings.
 */
import { createHash } from 'node:crypto';
import type http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { addressOf, closeGracefully, listen } from '../../src/http/server.js';
import { TokenSet } from '../../src/access/token-set.js';
import { configFromEnv } from '../../src/config/index.js';
import { ANONYMOUS } from '../../src/store/actor.js';
import { RelayerSync } from '../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../src/relayer/sync/store-desired.js';
import type { Speaker } from '../../src/relayer/lease/speaker.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { openSse } from '../helpers/sse.js';
import { startStandInRelayer, type StandInNetwork, type StandInRelayer } from '../helpers/stand-in-relayer.js';
import { startStore } from '../helpers/store.js';
import { within } from '../helpers/deadline.js';

const ADMIN = 'admin-key-0123456789abcdef0123456789';
const READER = 'reader-token-0123456789abcdef0123';
const RELAYER_KEY = 'relayer-key-0123456789abcdef';
const AS = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });
const DRIFT = 'https://hand-made.example.com';
const silent = { info: () => undefined, warn: () => undefined };

describe('http: operators in control of the relayer sync (real server, stand-in relayers on loopback)', () => {
  let root: string;
  let store: NetworkStore;
  let relayer: StandInRelayer;
  let sync: RelayerSync | null = null;
  let server: http.Server | null = null;
  let url: string;
  const shutdown = new AbortController();

  /** The relayer holds what is served, evm:sepolia's rpc_urls changed by hand. */
  const drifted = (): StandInNetwork[] =>
    store.ids().map((id) => {
      const view = JSON.parse(store.get(id).body).data as StandInNetwork;
      return id === 'evm:sepolia' ? { ...view, rpc_urls: [{ url: DRIFT, weight: 100 }] } : view;
    });
  async function serve(options: { selfHeal?: boolean; speaker?: Speaker } = {}): Promise<RelayerSync> {
    const tokens = new TokenSet(
      [
        {
          name: 'reader',
          role: 'read',
          networks: null,
          revealSecrets: false,
          expires: null,
          sha256: createHash('sha256').update(READER).digest('hex'),
        },
      ],
      ADMIN,
    );
    const target = {
      name: 'eu',
      url: relayer.url,
      apiKey: RELAYER_KEY,
      networks: null,
      selfHeal: options.selfHeal ?? true,
    };
    const s = new RelayerSync([target], desiredFromStore(store), {
      intervalMs: 60_000,
      timeoutMs: 1000,
      maxBytes: 1 << 20,
      log: silent,
      ...(options.speaker ? { speaker: options.speaker } : {}),
    });
    sync = s;
    server = await listen(
      createApp(store, { tokens, heartbeatMs: 50, shutdown: shutdown.signal, relayers: s }),
      '127.0.0.1',
      0,
    );
    url = addressOf(server);
    return s;
  }
  const syncNow = (key = ADMIN, name = 'eu'): Promise<Response> =>
    fetch(`${url}/api/v1/relayers/${name}/sync`, { method: 'POST', headers: AS(key) });

  beforeEach(async () => {
    root = makeConfigDir({
      'evm/sepolia.yaml': networkYaml({ rpc_urls: ['https://sepolia-a.example.com'] }),
      'evm/holesky.yaml': networkYaml({ rpc_urls: ['https://holesky-a.example.com'] }),
    });
    store = await startStore(root);
    relayer = await startStandInRelayer(RELAYER_KEY, drifted());
  });
  afterEach(async () => {
    await sync?.close();
    if (server) await closeGracefully(server);
    [sync, server] = [null, null];
    await relayer.close();
    await store.close();
    removeDir(root);
  });

  it('POST /api/v1/relayers/{name}/sync runs a pass and answers it; GET /api/v1/relayers/{name} keeps the finding, resolved', async () => {
    await serve();
    expect((await syncNow(READER)).status, 'admin only').to.equal(403);
    expect((await syncNow(ADMIN, 'nope')).status).to.equal(404);
    const heard = relayer.nextPatch();
    const res = await syncNow();
    expect(res.status).to.equal(200);
    const { data } = (await res.json()) as {
      data: {
        state: string;
        last_pass: { pages: number; networks_compared: number };
        findings: Array<Record<string, unknown>>;
      };
    };
    expect(data.state).to.equal('drifted');
    expect(data.last_pass).to.include({ pages: 1, networks_compared: 2 });
    expect(data.findings[0]).to.deep.include({
      network: 'evm:sepolia',
      kind: 'drift',
      fields: ['rpc_urls'],
      relayer_value: [{ url: `${DRIFT}/`, weight: 100 }],
      resolved_at: null,
    });
    await within(heard, 5000, 'the drift set back');
    await syncNow();
    const detail = (await (await fetch(`${url}/api/v1/relayers/eu`, { headers: AS(ADMIN) })).json()) as {
      data: { state: string; findings: Array<{ kind: string; resolved_at: string | null; sent: unknown }> };
    };
    expect(detail.data.state).to.equal('in_sync');
    expect(detail.data.findings).to.have.length(1);
    expect(detail.data.findings[0]?.resolved_at).to.be.a('string');
    expect(detail.data.findings[0]?.sent).to.deep.equal([{ url: 'https://sepolia-a.example.com/', weight: 100 }]);
    expect((await fetch(`${url}/api/v1/relayers/eu`, { headers: AS(READER) })).status).to.equal(403);
    relayer.mode = 'error500';
    const failing = (await (await syncNow()).json()) as {
      data: { state: string; counts: Record<string, number>; counts_at: string; last_pass_at: string };
    };
    expect(failing.data).to.deep.include({
      state: 'failing',
      counts_at: failing.data.last_pass_at,
      counts: { in_sync: 2, drifted: 0, stale: 0, missing: 0, failing: 0, extra: 0 },
    });
    expect(Date.parse(failing.data.counts_at), 'the counts are as of the last good pass').to.be.below(Date.now());
  });

  it('a replica that does not hold the lease lists nothing (standby) and answers sync now with 409 naming the holder', async () => {
    await serve({
      speaker: {
        holds: () => false,
        view: () => ({ holder: 'replica-b', this_replica: 'replica-a', expires_at: null }),
      },
    });
    const res = await syncNow();
    expect(res.status).to.equal(409);
    expect((await res.json()) as { error: string; code: string })
      .to.deep.include({ code: 'NOT_LEASE_HOLDER' })
      .and.have.property('error')
      .that.includes('replica-b');
    await sync?.passNow();
    await store.update('evm:holesky', { rpc_urls: ['https://holesky-b.example.com'] }, undefined, ANONYMOUS);
    await sync?.passNow();
    expect(relayer.requests, 'nothing listed or sent').to.deep.equal([]);
    expect(sync?.status()[0]).to.deep.include({
      state: 'standby',
      lease: { holder: 'replica-b', this_replica: 'replica-a', expires_at: null },
    });
  });

  it('self_heal: false reports drift and leaves it; a change made through netcfg is still sent', async () => {
    const s = await serve({ selfHeal: false });
    s.start();
    await within(s.passNow(), 5000, 'a pass');
    expect(s.status()[0]).to.include({ state: 'drifted', self_heal: false, patches_sent: 0 });
    expect(s.detail('eu')?.findings[0]).to.include({ kind: 'drift', sent: null });
    await within(s.passNow(), 5000, 'another pass');
    expect(relayer.networks.get('evm:sepolia')?.rpc_urls, 'the emergency fix left in place').to.deep.equal([
      { url: DRIFT, weight: 100 },
    ]);
    const heard = relayer.nextPatch();
    await store.update('evm:sepolia', { rpc_urls: ['https://sepolia-c.example.com'] }, undefined, ANONYMOUS);
    expect((await within(heard, 5000, 'the change sent')).body).to.deep.equal({
      rpc_urls: [{ url: 'https://sepolia-c.example.com', weight: 100 }],
    });
  });

  it('relayer_sync events name the network and kind, and reach admin tokens only', async () => {
    const s = await serve();
    const admin = await openSse(`${url}/api/v1/networks/events`, AS(ADMIN));
    const reader = await openSse(`${url}/api/v1/networks/events`, AS(READER));
    try {
      await within(s.passNow(), 5000, 'a pass');
      const events = await admin.waitFor(2, 5000);
      const found = events
        .filter((e) => e.event === 'relayer_sync')
        .map((e) => JSON.parse(e.data) as Record<string, unknown>);
      expect(found).to.deep.include({
        name: 'eu',
        state: 'drifted',
        counts: { in_sync: 1, drifted: 1, stale: 0, missing: 0, failing: 0, extra: 0 },
        counts_at: found[0]?.counts_at,
        last_error: null,
        network: 'evm:sepolia',
        kind: 'drift',
        fields: ['rpc_urls'],
        resolved: false,
      });
      await store.update('evm:holesky', { rpc_urls: ['https://holesky-b.example.com'] }, undefined, ANONYMOUS);
      await reader.waitFor(1, 5000);
      expect(
        reader.events.map((e) => e.event),
        'a read token hears the network change, nothing of the relayers',
      ).to.deep.equal(['modified']);
    } finally {
      admin.close();
      reader.close();
    }
  });

  it('a target that is netcfg itself is failing: points at netcfg itself, and is sent nothing', async () => {
    const tokens = new TokenSet([], ADMIN);
    server = await listen(createApp(store, { tokens, instanceId: 'instance-a' }), '127.0.0.1', 0);
    const self = new RelayerSync(
      [{ name: 'eu', url: addressOf(server), apiKey: ADMIN, networks: null }],
      desiredFromStore(store),
      { intervalMs: 60_000, timeoutMs: 1000, maxBytes: 1 << 20, log: silent, instanceId: 'instance-a' },
    );
    sync = self;
    self.start();
    await within(self.passNow(), 5000, 'a pass');
    expect(self.status()[0]).to.include({ state: 'failing' });
    expect(self.status()[0]?.last_error).to.include('points at netcfg itself');
    await store.update('evm:sepolia', { rpc_urls: ['https://sepolia-d.example.com'] }, undefined, ANONYMOUS);
    await within(self.passNow(), 5000, 'another pass');
    expect(self.status()[0]?.patches_sent, 'nothing sent to itself').to.equal(0);
    const own = await fetch(`${addressOf(server)}/api/v1/networks`, {
      headers: { ...AS(ADMIN), 'x-netcfg-instance': 'instance-a' },
    });
    expect([own.status, ((await own.json()) as { code: string }).code]).to.deep.equal([508, 'LOOP_DETECTED']);
  });

  it("api_key_env naming one of netcfg's own settings refuses the start", () => {
    const file = path.join(root, '..', `targets-own-${path.basename(root)}.yaml`);
    for (const own of ['API_KEY', 'GIT_REMOTE_TOKEN']) {
      writeFileSync(file, `relayers:\n  - name: eu\n    url: http://127.0.0.1:9\n    api_key_env: ${own}\n`);
      expect(() =>
        configFromEnv({ CONFIG_DIR: root, RELAYER_SYNC_FILE: file, API_KEY: ADMIN, GIT_REMOTE_TOKEN: 'x'.repeat(32) }),
      ).to.throw(`${own}, named as the key of relayer eu in RELAYER_SYNC_FILE, is one of netcfg's own settings`);
    }
  });
});
