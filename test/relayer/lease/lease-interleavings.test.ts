/**
 * A newer value is never followed by an older one at a relayer, in any interleaving of PATCHes,
 * pulls, passes and a change of holder. Two replicas in this process, each a GIT_SYNC store on its
 * own clone of one `git daemon` remote, its relayer sync and its lease (the real ref of the remote);
 * every step is driven by the test, never by timing: the stand-in relayer holds lists or PATCHes at
 * its gates, pulls and passes are called (their intervals are an hour), and the lease changes hands
 * by moving the replicas' clocks; a proxy holds one chosen call while others pass it. A PATCH of the
 * old holder held in flight is let go before the new holder's quiet time ends: what the call deadline
 * guarantees (lease.ts; the lease's clocks measure it, the client's own deadline is set long here so
 * that real time never cuts a call).
 */
import path from 'node:path';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { Lease } from '../../../src/relayer/lease/lease.js';
import { RelayerSync } from '../../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../../src/relayer/sync/store-desired.js';
import { ANONYMOUS } from '../../../src/store/actor.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { cloneOf, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { networkYaml } from '../../helpers/fixtures.js';
import { appliedValues, RELAYER_KEY } from '../../helpers/lease-replicas.js';
import { startStandInRelayer, type StandInRelayer } from '../../helpers/stand-in-relayer.js';
import { startStore } from '../../helpers/store.js';
import { startHeldCallProxy, type HeldCallProxy } from '../../helpers/held-call-proxy.js';

const L = 6000;
const CALL_MS = 1000;
const V = ['https://v0.example.com', 'https://v1.example.com', 'https://v2.example.com', 'https://v3.example.com'];
const log = { info: () => undefined, warn: () => undefined };

type Who = 'A' | 'B';
/**
 * Steps: `write X n` (V[n] written on X, awaited: pushed), `pull X`, `pass X` (awaited unless lists
 * are held), `hold lists|patches` (every one, at the relayer), `release lists|patches`, `patch sent` (a PATCH
 * reached the relayer), `hold call` (the next PATCH, alone, in the proxy), `call held`, `release call`,
 * `take X` (the holder falls silent, X's lease view runs out and X takes the lease: quiet), `speak X`
 * (X's quiet is over).
 */
const CASES: Array<{ name: string; steps: string[] }> = [
  {
    name: "the issue's flip-flop: the holder's pass held in its list while a change made on it lands",
    steps: ['hold lists', 'pass A', 'write A 1', 'patch sent', 'pass B', 'release lists', 'pass A', 'pass B'],
  },
  {
    name: "the old holder's PATCH in flight across a change of holder",
    steps: [
      'hold call',
      'write A 1',
      'call held',
      'take B',
      'write B 2',
      'pull B',
      'release call',
      'speak B',
      'pass B',
    ],
  },
  {
    name: "the old holder's PATCH in flight, the new holder a pull behind",
    steps: [
      'hold call',
      'write A 1',
      'call held',
      'take B',
      'release call',
      'speak B',
      'pass B',
      'write A 2',
      'pass B',
    ],
  },
  {
    name: 'a new holder a pull behind',
    steps: ['write A 1', 'patch sent', 'take B', 'speak B', 'pass B', 'write A 2', 'pass B', 'pull B'],
  },
  {
    name: 'a change made on the replica standing by, sent by the holder after its pull',
    steps: ['write B 1', 'pass A', 'write B 2', 'pull A', 'pass B', 'pass A'],
  },
  {
    name: "a pull lands between the holder's list and its compare",
    steps: ['hold lists', 'pass A', 'write B 1', 'write B 2', 'release lists', 'pass A'],
  },
  {
    name: "the old holder's pass held in its list across a change of holder",
    steps: ['hold lists', 'pass A', 'take B', 'speak B', 'write B 1', 'patch sent', 'release lists', 'pass B'],
  },
  {
    name: 'the lease there and back, changes on both sides',
    steps: [
      'write B 1',
      'pass A',
      'take B',
      'write A 2',
      'speak B',
      'pass B',
      'take A',
      'write B 3',
      'speak A',
      'pass A',
      'pass B',
    ],
  },
  {
    name: 'a PATCH held while newer writes pile up on the other replica',
    steps: ['hold call', 'write A 1', 'call held', 'write B 2', 'write B 3', 'pull A', 'release call', 'pass A'],
  },
  {
    name: 'every PATCH held at the relayer while newer writes pile up',
    steps: ['hold patches', 'write A 1', 'patch sent', 'write B 2', 'write B 3', 'pull A', 'release patches', 'pass A'],
  },
];

describe('relayer sync: no interleaving sets a relayer back (two replicas, one lease, gates)', function () {
  this.timeout(120_000);
  let remote: GitRemote;
  let relayer: StandInRelayer;
  let proxy: HeldCallProxy;
  const replicas = new Map<Who, { store: NetworkStore; sync: RelayerSync; lease: Lease; clock: { now: number } }>();

  afterEach(async () => {
    for (const r of replicas.values()) {
      await r.sync.close();
      await r.lease.close();
      await r.store.close();
    }
    replicas.clear();
    await proxy.close();
    await relayer.close();
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  for (const { name, steps } of CASES) {
    it(`${name}: ${steps.join(', ')}`, async () => {
      remote = await startGitRemote({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: [V[0]!] }) });
      relayer = await startStandInRelayer(RELAYER_KEY, [
        { id: 'evm:sepolia', name: 'sepolia', network_type: 'evm', rpc_urls: [{ url: V[0]!, weight: 100 }] },
      ]);
      proxy = await startHeldCallProxy(relayer.url);
      const applied = appliedValues(relayer);
      for (const who of ['A', 'B'] as const) {
        const store = await startStore(path.join(cloneOf(remote, who), 'config', 'networks'), {
          gitSync: { intervalMs: 3_600_000 },
        });
        const clock = { now: who === 'A' ? 0 : 987_654 }; // clocks of their own: no common origin
        const lease = new Lease({
          leaseMs: L,
          replica: who,
          callMs: CALL_MS,
          storage: store.relayerLease(),
          log,
          clock: () => clock.now,
        });
        const target = { name: 'relayer', url: proxy.url, apiKey: RELAYER_KEY, networks: null };
        const sync = new RelayerSync([target], desiredFromStore(store), {
          intervalMs: 3_600_000,
          timeoutMs: 30_000,
          maxBytes: 1 << 20,
          log,
          speaker: lease,
        });
        replicas.set(who, { store, sync, lease, clock });
      }
      const r = (who: string) => replicas.get(who as Who)!;
      await r('A').lease.step();
      await r('B').lease.step();
      expect([r('A').lease.holds(), r('B').lease.holds()]).to.deep.equal([true, false]);
      for (const who of ['A', 'B']) r(who).sync.start();
      await Promise.all([r('A').sync.passNow(), r('B').sync.passNow()]);

      const gates = { lists: null as null | (() => void), patches: null as null | (() => void) };
      let call: { arrived: Promise<void>; release(): void } | null = null;
      const pending: Array<Promise<void>> = [];
      let newest = 0;
      let patchesBeforeWrite = 0; // `patch sent` waits for one more PATCH than the relayer had before the last write
      for (const step of steps) {
        const [verb, who, n] = step.split(' ') as [string, string, string | undefined];
        if (verb === 'write') {
          patchesBeforeWrite = relayer.requests.filter((q) => q.method === 'PATCH').length;
          newest = Number(n);
          await r(who).store.update('evm:sepolia', { rpc_urls: [V[newest]!] }, undefined, ANONYMOUS);
        } else if (verb === 'pull') await r(who).store.caughtUp();
        else if (verb === 'pass') {
          const passing = r(who).sync.passNow();
          if (gates.lists && r(who).lease.holds()) {
            const gets = relayer.requests.filter((q) => q.method === 'GET').length;
            pending.push(passing);
            await relayer.untilRequests(gets + 1, 'GET');
          } else await passing;
        } else if (verb === 'hold' && who !== 'call') {
          const gate = new Promise<void>((resolve) => (gates[who as 'lists' | 'patches'] = resolve));
          if (who === 'lists') relayer.listGate = gate;
          else relayer.patchGate = gate;
        } else if (verb === 'release' && who !== 'call') {
          if (who === 'lists') relayer.listGate = null;
          else relayer.patchGate = null;
          gates[who as 'lists' | 'patches']?.();
          await Promise.all(pending.splice(0));
        } else if (verb === 'hold' && who === 'call') call = proxy.holdNext('PATCH');
        else if (verb === 'call') await call?.arrived;
        else if (verb === 'release' && who === 'call') {
          const sent = relayer.nextPatch();
          call?.release();
          await sent; // applied
        } else if (verb === 'patch') await relayer.untilRequests(patchesBeforeWrite + 1, 'PATCH');
        else if (verb === 'take') {
          const [to, from] = [r(who), r(who === 'A' ? 'B' : 'A')];
          await to.lease.step(); // a look: the version it sees now is where its count starts
          from.clock.now += (3 * L) / 4;
          expect(from.lease.holds(), 'the old holder, unable to renew, is silent').to.equal(false);
          to.clock.now += L;
          await to.lease.step();
          expect(to.lease.view().holder, 'the lease taken').to.equal(who);
          expect(to.lease.holds(), "the new holder waits out the old holder's calls").to.equal(false);
        } else if (verb === 'speak') {
          r(who).clock.now += CALL_MS;
          expect(r(who).lease.holds()).to.equal(true);
        } else throw new Error(`unknown step ${step}`);
        const order = applied.map((v) => V.indexOf(v));
        expect(
          order.every((v, i) => i === 0 || v >= order[i - 1]!),
          `after "${step}" the relayer applied ${order.join(', ')}`,
        ).to.equal(true);
      }
      // The holder catches up: the relayer ends at the newest value, and was never set back on the way.
      const holder = r('A').lease.holds() ? r('A') : r('B');
      await holder.store.caughtUp();
      await holder.sync.passNow();
      await holder.sync.passNow();
      const order = applied.map((v) => V.indexOf(v));
      expect(
        order.every((v, i) => i === 0 || v >= order[i - 1]!),
        `the relayer applied ${order.join(', ')}`,
      ).to.equal(true);
      expect(relayer.networks.get('evm:sepolia')?.rpc_urls).to.deep.equal([{ url: V[newest]!, weight: 100 }]);
    });
  }
});
