/**
 * A replica speaks to the relayers only within its window of holding the lease, and only in the term
 * it holds it in: no call outlives the window (its deadline is cut to it), and what a pass read or a
 * change queued in one term is never acted on in the next (another replica spoke between). On a real
 * store, a stand-in relayer on loopback, the lease on its real file slot with clocks the test moves,
 * and a speaker the test drives for the worker's cases.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ANONYMOUS } from '../../../src/store/actor.js';
import { Lease } from '../../../src/relayer/lease/lease.js';
import { listNetworks, patchRpcUrls, RelayerCallError } from '../../../src/relayer/sync/relayer-client.js';
import { RelayerSync } from '../../../src/relayer/sync/relayer-sync.js';
import type { Speaker } from '../../../src/relayer/lease/speaker.js';
import { desiredFromStore } from '../../../src/relayer/sync/store-desired.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { LeaseFile } from '../../../src/store/files/lease-file.js';
import { within } from '../../helpers/deadline.js';
import { makeConfigDir, networkYaml, removeDir } from '../../helpers/fixtures.js';
import { startStandInRelayer, type StandInNetwork, type StandInRelayer } from '../../helpers/stand-in-relayer.js';
import { startStore } from '../../helpers/store.js';

const KEY = 'relayer-key-0123456789abcdef';
const quiet = { info: () => undefined, warn: () => undefined };
const url = (n: number): Array<{ url: string; weight: number }> => [{ url: `https://v${n}.example.com`, weight: 100 }];
const client = {
  timeoutMs: 30_000,
  maxBytes: 1 << 20,
  instanceId: 'test',
  maxPassBytes: 1 << 20,
  maxPassNetworks: 100,
};

/** A speaker the test moves: whether it holds, and its term (a new one: the lease was lost and taken again). */
class DrivenSpeaker implements Speaker {
  held = true;
  taken = 1;
  holds(): boolean {
    return this.held;
  }
  term(): number {
    return this.taken;
  }
  speaksForMs(): number {
    return this.held ? 60_000 : 0;
  }
}

async function failureOf(call: Promise<unknown>): Promise<string> {
  const err: unknown = await within(
    call.then(
      () => new Error('it succeeded'),
      (e: unknown) => e,
    ),
    5000,
    'the call',
  );
  return err instanceof RelayerCallError ? err.failure : String(err);
}

describe('relayer/sync: a replica speaks only within its window and its term', function () {
  this.timeout(30_000);
  let relayer: StandInRelayer;
  afterEach(async () => relayer.close());

  describe('each call to a relayer has its deadline cut to the window', () => {
    it('a window already over: no call is made', async () => {
      relayer = await startStandInRelayer(KEY, [{ id: 'evm:sepolia', rpc_urls: url(0) }]);
      const target = { name: 'relayer', url: relayer.url, apiKey: KEY };
      expect(await failureOf(listNetworks(target, { ...client, speaksForMs: () => 0 }))).to.equal('silent');
      expect(
        await failureOf(patchRpcUrls(target, 'evm:sepolia', url(1), { ...client, speaksForMs: () => 0 })),
      ).to.equal('silent');
      expect(relayer.requests).to.have.length(0);
    });

    it('a relayer that never answers: the call ends with the window (200 ms), not the 30 s deadline', async () => {
      relayer = await startStandInRelayer(KEY, [{ id: 'evm:sepolia', rpc_urls: url(0) }]);
      relayer.mode = 'stall';
      const target = { name: 'relayer', url: relayer.url, apiKey: KEY };
      expect(
        await failureOf(patchRpcUrls(target, 'evm:sepolia', url(1), { ...client, speaksForMs: () => 200 })),
      ).to.equal('silent');
    });
  });

  it('the lease: its window is 0 while standing by and in the quiet after a take-over; its term changes at a take, not a renewal', async () => {
    relayer = await startStandInRelayer(KEY, []);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-window-'));
    const L = 1200;
    const clocks = { a: 0, b: 5e6 };
    const lease = (who: 'a' | 'b'): Lease =>
      new Lease({
        leaseMs: L,
        replica: who,
        callMs: 300,
        storage: new LeaseFile(() => path.join(dir, '.locks'), 5000),
        log: quiet,
        clock: () => clocks[who],
      });
    const [a, b] = [lease('a'), lease('b')];
    try {
      await a.step();
      await b.step();
      expect([a.speaksForMs(), b.speaksForMs(), a.term(), b.term()]).to.deep.equal([(3 * L) / 4, 0, 1, 0]);
      clocks.a += L / 3;
      await a.step(); // a renewal
      expect([a.speaksForMs(), a.term()]).to.deep.equal([(3 * L) / 4, 1]);
      await b.step(); // b sees the renewed version: its count starts there
      clocks.a += (3 * L) / 4; // a cannot renew: silent
      clocks.b += L;
      await b.step(); // b takes the lease that ran out
      expect([a.speaksForMs(), b.speaksForMs(), b.term()], "b waits out a's calls").to.deep.equal([0, 0, 1]);
      clocks.b += 300;
      expect(b.speaksForMs()).to.be.greaterThan(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('the worker (a store on a folder, a speaker the test moves)', () => {
    let root: string;
    let store: NetworkStore;
    let sync: RelayerSync;
    let speaker: DrivenSpeaker;
    /** While set, a pass's catch-up after its list waits until `open`; `reached` resolves when a pass gets there. */
    let pullGate: { opened: Promise<void>; open: () => void; reached: Promise<void>; reach: () => void } | null = null;
    /** Resolves at the next 'rpc_urls sent' the sync logs. */
    let sent: () => void = () => undefined;
    const log = {
      info: (_: object, message: string) => void (message.includes('rpc_urls sent') && sent()),
      warn: () => undefined,
    };

    const holdPulls = (): NonNullable<typeof pullGate> => {
      const gate = { open: () => undefined, reach: () => undefined } as unknown as NonNullable<typeof pullGate>;
      gate.opened = new Promise<void>((resolve) => (gate.open = () => ((pullGate = null), resolve())));
      gate.reached = new Promise<void>((resolve) => (gate.reach = resolve));
      return (pullGate = gate);
    };

    async function start(served: number, held: number, holds: boolean): Promise<void> {
      root = makeConfigDir({
        'evm/sepolia.yaml': networkYaml({ rpc_urls: [url(served)[0]!.url] }),
        'evm/holesky.yaml': networkYaml({ rpc_urls: ['https://h.example.com'] }),
      });
      store = await startStore(root);
      const answered = (id: string): StandInNetwork => JSON.parse(store.get(id).body).data as StandInNetwork;
      relayer = await startStandInRelayer(KEY, [
        { ...answered('evm:sepolia'), rpc_urls: url(held) },
        answered('evm:holesky'),
      ]);
      const desired = desiredFromStore(store);
      const catchUp = async (): Promise<void> => {
        const gate = pullGate;
        gate?.reach();
        await gate?.opened;
        await desired.catchUp();
      };
      speaker = new DrivenSpeaker();
      speaker.held = holds;
      const target = { name: 'relayer', url: relayer.url, apiKey: KEY, networks: null };
      sync = new RelayerSync(
        [target],
        { ...desired, catchUp },
        { intervalMs: 3_600_000, timeoutMs: 30_000, maxBytes: 1 << 20, log, speaker },
      );
      sync.start();
      await within(sync.passNow(), 5000, 'the first pass');
    }
    afterEach(async () => {
      await sync.close();
      await store.close();
      removeDir(root);
    });

    it('a pass whose catch-up spans a change of holder compares nothing: what it listed may be older than the relayer', async () => {
      await start(1, 0, false); // serves v1; the relayer holds v0; standing by
      speaker.held = true;
      const gate = holdPulls();
      const passing = sync.passNow();
      await within(gate.reached, 5000, 'the pass listed');
      speaker.taken = 2; // lost and taken again: the other holder meanwhile sent v2
      relayer.networks.get('evm:sepolia')!.rpc_urls = url(2);
      gate.open();
      await within(passing, 5000, 'the pass');
      await sync.close();
      expect(
        relayer.requests.filter((q) => q.method === 'PATCH'),
        'nothing sent from the stale list',
      ).to.have.length(0);
      expect(relayer.networks.get('evm:sepolia')?.rpc_urls).to.deep.equal(url(2));
    });

    it('a pass asked for in a new term does not join the pass of the old one: it lists again', async () => {
      await start(1, 1, true);
      const lists = relayer.requests.filter((q) => q.method === 'GET').length;
      const gate = holdPulls();
      const old = sync.passNow();
      await within(gate.reached, 5000, 'the old pass listed');
      speaker.taken = 2;
      const fresh = sync.passNow();
      gate.open();
      await within(Promise.all([old, fresh]), 5000, 'both passes');
      expect(relayer.requests.filter((q) => q.method === 'GET').length - lists, 'a list of the new term').to.equal(2);
    });

    it("a change queued in one term is not sent in the next (the old holder's PATCH of another network in flight)", async () => {
      await start(1, 1, true);
      let release = (): void => undefined;
      relayer.patchGate = new Promise<void>((resolve) => (release = resolve));
      const first = relayer.untilRequests(1, 'PATCH');
      await store.update('evm:sepolia', { rpc_urls: [url(3)[0]!.url] }, undefined, ANONYMOUS);
      await within(first, 5000, 'the first PATCH in flight');
      await store.update('evm:holesky', { rpc_urls: ['https://h2.example.com'] }, undefined, ANONYMOUS); // queued behind it
      speaker.taken = 2;
      const answered = new Promise<void>((resolve) => (sent = resolve));
      release();
      await within(answered, 5000, 'the first PATCH answered'); // the queue's next network is decided at once after it
      await sync.close();
      expect(relayer.requests.filter((q) => q.method === 'PATCH').map((q) => q.path)).to.deep.equal([
        '/api/v1/networks/evm%3Asepolia',
      ]);
    });
  });
});
