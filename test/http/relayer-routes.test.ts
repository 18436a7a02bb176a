/**
 * The relayer routes on a real listening server over a real folder: GET /api/v1/export/relayer is
 * the document `netcfg export relayer --out -` writes, behind the key; GET /api/v1/relayers, the
 * readiness component and the `relayer_sync` event show a relayer (a stand-in on loopback) and its
 * state, without its key.
 */
import type http from 'node:http';
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { addressOf, closeGracefully, listen } from '../../src/http/server.js';
import { exportFolder } from '../../src/commands/export-relayer.js';
import { oneDocument } from '../../src/relayer/format/export.js';
import { RelayerSync } from '../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../src/relayer/sync/store-desired.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { OPEN_POLICY } from '../../src/store/validation/url-rules.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { openSse } from '../helpers/sse.js';
import { startStandInRelayer, type StandInRelayer } from '../helpers/stand-in-relayer.js';
import { startStore } from '../helpers/store.js';
import { within } from '../helpers/deadline.js';

const KEY = 'http-test-key-0123456789abcdef0123456789';
const RELAYER_KEY = 'relayer-secret-key-0123456789';
const AUTH = { authorization: `Bearer ${KEY}` };
/** Not started: passes run only when a test asks; readiness counts a bad state as lasting past it. */
const INTERVAL_MS = 300;
const FILES = {
  'evm/sepolia.yaml':
    'rpc_urls:\n  - https://a.example.com\n  - url: https://b.example.com\n    weight: 5\nchain_id: 11155111\nsymbol: ETH\nrequired_confirmations: 2\n',
  'solana/devnet.yaml':
    'rpc_urls: [https://s.example.com]\ngenesis_hash: EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG\n',
  'cosmos/hub.yaml': networkYaml(),
};

describe('http: the relayer routes (real server, real folder, a stand-in relayer on loopback)', () => {
  let root: string;
  let store: NetworkStore;
  let relayer: StandInRelayer;
  let sync: RelayerSync;
  let server: http.Server;
  let url: string;
  const shutdown = new AbortController();

  beforeEach(async () => {
    root = makeConfigDir(FILES);
    store = await startStore(root);
    relayer = await startStandInRelayer(RELAYER_KEY, []); // holds none of them: each is missing
    sync = new RelayerSync(
      [{ name: 'eu', url: relayer.url, apiKey: RELAYER_KEY, networks: null }],
      desiredFromStore(store),
      {
        intervalMs: INTERVAL_MS,
        timeoutMs: 1000,
        maxBytes: 1 << 20,
        log: { info: () => undefined, warn: () => undefined },
      },
    );
    server = await listen(
      createApp(store, { apiKey: KEY, heartbeatMs: 50, shutdown: shutdown.signal, relayers: sync }),
      '127.0.0.1',
      0,
    );
    url = addressOf(server);
  });
  afterEach(async () => {
    await sync.close();
    await closeGracefully(server);
    await relayer.close();
    await store.close();
    removeDir(root);
  });

  it("GET /api/v1/export/relayer: the CLI's document from the live index, behind the key, with what was left out counted", async () => {
    expect((await fetch(`${url}/api/v1/export/relayer`)).status).to.equal(401);
    const res = await fetch(`${url}/api/v1/export/relayer`, { headers: AUTH });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal(oneDocument(exportFolder(root, OPEN_POLICY)));
    expect(res.headers.get('netcfg-left-out')).to.equal('2'); // cosmos:hub, solana's genesis_hash
  });

  it('GET /api/v1/relayers, readiness and the change stream show the relayer and its state, never its key', async () => {
    const stream = await openSse(`${url}/api/v1/networks/events`, AUTH);
    try {
      await sync.passNow();
      const [event] = (await stream.waitFor(1, 5000)).filter((e) => e.event === 'relayer_sync');
      expect(JSON.parse(event?.data ?? '{}')).to.deep.include({
        name: 'eu',
        state: 'missing',
        counts: { in_sync: 0, drifted: 0, stale: 0, missing: 2, failing: 0, extra: 0 },
      });
      expect((await fetch(`${url}/api/v1/relayers`)).status).to.equal(401);
      const body = (await (await fetch(`${url}/api/v1/relayers`, { headers: AUTH })).json()) as {
        data: Array<{ name: string; networks: Array<{ id: string }> }>;
      };
      expect(body.data.map((r) => [r.name, r.networks.map((n) => n.id)])).to.deep.equal([
        ['eu', ['evm:sepolia', 'solana:devnet']],
      ]);
      type Ready = {
        status: string;
        components: { relayers: { status: string; targets: Array<{ counts_at: string | null }> } };
      };
      const readiness = async (): Promise<Ready> =>
        (await (await fetch(`${url}/api/v1/ready`, { headers: AUTH })).json()) as Ready; // an admin sees each relayer
      expect(
        (await readiness()).components.relayers.status,
        'a state found just now may be closed within the interval',
      ).to.equal('healthy');
      let ready = await readiness();
      await within(
        (async () => {
          while (ready.components.relayers.status !== 'degraded') ready = await readiness();
        })(),
        5000,
        'degraded once the state lasted longer than one interval',
      );
      expect(ready.components.relayers.targets[0]?.counts_at).to.be.a('string');
      expect(ready.status, 'a relayer never takes netcfg out of service').to.not.equal('unavailable');
      expect(JSON.stringify([body, ready, stream.events])).to.not.include(RELAYER_KEY);
    } finally {
      stream.close();
    }
  });
});
