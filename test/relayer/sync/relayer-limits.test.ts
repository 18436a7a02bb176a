/**
 * A relayer cannot mislead or hurt netcfg: on a real store, stand-in relayers on loopback
 * (test/helpers/stand-in-relayer.ts, paging as src/api/controllers/network.rs does at v1.8.0:
 * `pagination.per_page` is the one it applied) and a front in front of them that plays a proxy's
 * quirks (test/helpers/relayer-front.ts): a smaller per_page, answers without end, the bearer
 * header echoed in its errors. And one relayer held in its list delays no other relayer's pass.
 */
import { expect } from 'chai';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { RelayerSync, type RelayerSyncOptions } from '../../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../../src/relayer/sync/store-desired.js';
import type { TargetStatus } from '../../../src/relayer/sync/target-status.js';
import { makeConfigDir, networkYaml, removeDir } from '../../helpers/fixtures.js';
import { startStandInRelayer, type StandInNetwork, type StandInRelayer } from '../../helpers/stand-in-relayer.js';
import { startRelayerFront, type RelayerFront } from '../../helpers/relayer-front.js';
import { startStore } from '../../helpers/store.js';
import { within } from '../../helpers/deadline.js';

const KEY = 'relayer-key-0123456789abcdef';
const MANY = Object.fromEntries(
  Array.from({ length: 120 }, (_, i) => [
    `evm/net-${String(i).padStart(3, '0')}.yaml`,
    networkYaml({ rpc_urls: [`https://n${i}.example.com`] }),
  ]),
);

describe('relayer/sync: limits a relayer cannot pass (stand-ins and a front on loopback)', function () {
  this.timeout(20_000);
  let root: string;
  let store: NetworkStore;
  let sync: RelayerSync | null;
  let closers: Array<() => Promise<void>>;
  const said: string[] = [];
  const log = {
    info: (f: object, m: string) => said.push(JSON.stringify({ ...f, m })),
    warn: (f: object, m: string) => said.push(JSON.stringify({ ...f, m })),
  };

  const served = (): StandInNetwork[] => store.ids().map((id) => JSON.parse(store.get(id).body).data as StandInNetwork);
  const standIn = async (networks: StandInNetwork[]): Promise<StandInRelayer> => {
    const r = await startStandInRelayer(KEY, networks);
    closers.push(() => r.close());
    return r;
  };
  const front = async (behind: string): Promise<RelayerFront> => {
    const f = await startRelayerFront(behind);
    closers.push(() => f.close());
    return f;
  };
  const startSync = (
    targets: Array<{ name: string; url: string }>,
    options: Partial<RelayerSyncOptions> = {},
  ): RelayerSync => {
    sync = new RelayerSync(
      targets.map((t) => ({ ...t, apiKey: KEY, networks: null })),
      desiredFromStore(store),
      { intervalMs: 60_000, timeoutMs: 2000, maxBytes: 16 << 20, log, ...options },
    );
    return sync;
  };

  beforeEach(async () => {
    root = makeConfigDir(MANY);
    store = await startStore(root);
    [sync, closers, said.length] = [null, [], 0];
  });
  afterEach(async () => {
    await sync?.close();
    await Promise.all(closers.map((c) => c()));
    await store.close();
    removeDir(root);
  });

  it('pages are walked by the per_page the relayer answered: a proxy capping it at 50 gives no false missing', async () => {
    const f = await front((await standIn(served())).url);
    f.perPageCap = 50;
    const s = startSync([{ name: 'eu', url: f.url }]);
    await within(s.passNow(), 5000, 'a pass');
    const status = s.status()[0] as TargetStatus;
    expect(status.counts).to.include({ in_sync: 120, missing: 0 });
    expect(status.last_pass).to.include({ pages: 3, networks_compared: 120 });
    expect(f.listed.map((q) => new URLSearchParams(q).get('page'))).to.deep.equal(['1', '2', '3']);
  });

  const BUDGETS: Array<[string, Partial<RelayerSyncOptions>, string, number]> = [
    [
      'bytes (4 MiB) against pages of 1 MiB without end',
      { maxPassBytes: 4 << 20, maxPassNetworks: 10_000_000 },
      "more bytes than this pass's budget",
      5 << 20,
    ],
    ['networks (10,000, the default) against a list of a million', {}, 'more than 10000 networks', 2 << 20],
  ];
  for (const [name, budget, sentence, mostRead] of BUDGETS) {
    it(`a pass past its budget in ${name} stops reading; the relayer is failing with a sentence`, async () => {
      const f = await front((await standIn([])).url);
      f.quirk = 'huge';
      const s = startSync([{ name: 'big', url: f.url }], budget);
      await within(s.passNow(), 10_000, 'the pass over budget');
      const status = s.status()[0] as TargetStatus;
      expect(status.state).to.equal('failing');
      expect(status.last_error).to.include(sentence);
      expect(f.served, 'bytes the relayer wrote before netcfg stopped').to.be.at.most(mostRead);
      expect(s.detail('big')?.findings[0]).to.include({ kind: 'failing', network: null });
    });
  }

  it("a relayer held in its list delays no other relayer's pass: drift on the other is set back at its own interval", async () => {
    const slow = await standIn(served());
    const fast = await standIn(served());
    let release: () => void = () => undefined;
    slow.listGate = new Promise((resolve) => (release = resolve));
    closers.unshift(async () => release());
    const s = startSync(
      [
        { name: 'slow', url: slow.url },
        { name: 'fast', url: fast.url },
      ],
      { intervalMs: 200, timeoutMs: 10_000 },
    );
    s.start();
    await within(fast.untilRequests(1, 'GET'), 5000, 'the fast relayer listed');
    const heard = fast.nextPatch();
    (fast.networks.get('evm:net-007') as StandInNetwork).rpc_urls = [
      { url: 'https://hand-made.example.com', weight: 100 },
    ];
    expect(
      (await within(heard, 3000, 'the drift on the fast relayer set back while the slow one holds its list')).id,
    ).to.equal('evm:net-007');
    expect(
      s.status().find((t) => t.name === 'slow')?.last_pass_at,
      'the slow relayer is still in its first pass',
    ).to.equal(null);
  });

  it('a relayer that echoes the bearer header in its errors: its key in no status, finding, log line or event', async () => {
    const f = await front((await standIn(served())).url);
    f.quirk = 'echoAuth';
    const s = startSync([{ name: 'echo', url: f.url }]);
    const heard: string[] = [];
    s.onChange((status) => heard.push(JSON.stringify(status)));
    s.onFinding((status, finding) => heard.push(JSON.stringify([status, finding])));
    await within(s.passNow(), 5000, 'a pass');
    const status = s.status()[0] as TargetStatus;
    expect(status.last_error).to.include('failed (502): upstream refused request with Bearer ***');
    const everything = JSON.stringify([s.status(), s.detail('echo'), said, heard]);
    for (const form of [
      KEY,
      KEY.toUpperCase(),
      encodeURIComponent(`Bearer ${KEY}`),
      Buffer.from(KEY).toString('base64'),
    ])
      expect(everything).to.not.include(form);
    expect(heard.length, 'events were told').to.be.greaterThan(0);
  });
});
