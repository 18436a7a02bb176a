/**
 * The lease protocol (lease.ts) on the real slot without GIT_SYNC (a file beside the write locks,
 * lease-file.ts, in a fresh folder), each replica with a clock of its own that the test moves: no
 * sleeps, and clocks that disagree (a different origin each) as hosts' do. After every move the test
 * checks that no two replicas speak at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Lease, type LeaseStorage } from '../../../src/relayer/lease/lease.js';
import { LeaseFile } from '../../../src/store/files/lease-file.js';

const L = 1200;
const quiet = { info: () => undefined, warn: () => undefined };

interface Replica {
  lease: Lease;
  /** Moves this replica's clock on. */
  tick(ms: number): void;
}

describe('relayer/lease: one replica speaks (file slot, clocks moved by the test)', () => {
  let dir: string;
  let replicas: Replica[];

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-lease-'));
    replicas = [];
  });
  afterEach(async () => {
    await Promise.all(replicas.map((r) => r.lease.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  function replica(
    name: string,
    origin: number,
    storage: LeaseStorage = new LeaseFile(() => path.join(dir, '.locks'), 5000),
    callMs = 300,
  ): Replica {
    let now = origin;
    const r = {
      lease: new Lease({ leaseMs: L, replica: name, callMs, storage, log: quiet, clock: () => now }),
      tick: (ms: number) => (now += ms),
    };
    replicas.push(r);
    return r;
  }

  const speakers = (): number => replicas.filter((r) => r.lease.holds()).length;

  it('of two replicas racing for a free slot exactly one wins, every time (compare-and-swap under the lock)', async () => {
    for (let round = 0; round < 20; round++) {
      rmSync(path.join(dir, '.locks'), { recursive: true, force: true });
      const [a, b] = [replica(`a${round}`, 0), replica(`b${round}`, 5e6)];
      await Promise.all([a.lease.step(), b.lease.step()]);
      expect(speakers(), `round ${round}`).to.equal(1);
      const winner = a.lease.holds() ? a : b;
      expect(a.lease.view().holder).to.equal(b.lease.view().holder).and.equal(winner.lease.view().this_replica);
      await Promise.all(replicas.splice(0).map((r) => r.lease.close()));
    }
  });

  it('the holder renewing every third keeps the lease; one standing by never takes it', async () => {
    const [a, b] = [replica('a', 0), replica('b', 777_000)];
    await a.lease.step();
    await b.lease.step();
    for (let i = 0; i < 12; i++) {
      a.tick(L / 3);
      b.tick(L / 3);
      await a.lease.step();
      await b.lease.step();
      expect([a.lease.holds(), b.lease.holds()], `after ${i + 1} thirds`).to.deep.equal([true, false]);
    }
    expect(b.lease.view()).to.include({ holder: 'a', this_replica: 'b' });
  });

  // Each row: how the holder fails; it must fall silent before the other may take over, which it does within 2 leases.
  const FAILURES: Array<{ name: string; fail: (slot: { broken: boolean }, a: Replica) => Promise<void> | void }> = [
    { name: 'killed (no renewal at all)', fail: () => undefined },
    { name: 'cut off from the slot (every renewal throws)', fail: (slot) => void (slot.broken = true) },
  ];
  for (const row of FAILURES) {
    it(`a holder ${row.name} stops speaking before its lease ends; the other takes over within two leases`, async () => {
      const slot = { broken: false };
      const file = new LeaseFile(() => path.join(dir, '.locks'), 5000);
      const breakable: LeaseStorage = {
        read: () => (slot.broken ? Promise.reject(new Error('unreachable')) : file.read()),
        swap: (e, r) => (slot.broken ? Promise.reject(new Error('unreachable')) : file.swap(e, r)),
      };
      const a = replica('a', 0, breakable);
      const b = replica('b', 42);
      await a.lease.step();
      await b.lease.step();
      await row.fail(slot, a);
      let took = -1;
      for (let t = 50; t <= 2 * L; t += 50) {
        a.tick(50);
        b.tick(50);
        if (row.name.startsWith('cut') && t % (L / 3) === 0) await a.lease.step();
        if (t % (L / 3) === 0 || t % 50 === 0) await b.lease.step();
        expect(speakers(), `at ${t} ms`).to.be.at.most(1);
        if (t >= (3 * L) / 4) expect(a.lease.holds(), `the old holder at ${t} ms`).to.equal(false);
        if (b.lease.holds()) {
          took = t;
          break;
        }
      }
      expect(took, 'when b spoke').to.be.within(L, 2 * L);
      // b took over a lease that ran out: it waited out a's last call (min(callMs, L/2) = 300 ms) first.
      expect(took).to.be.at.least(L + 300);
    });
  }

  it('a holder that stops gives the lease up: the other takes it at its next look, with no wait', async () => {
    const [a, b] = [replica('a', 0), replica('b', 9)];
    await a.lease.step();
    await b.lease.step();
    await a.lease.close();
    expect(a.lease.holds()).to.equal(false);
    b.tick(L / 3);
    await b.lease.step();
    expect(b.lease.holds()).to.equal(true);
    expect(b.lease.view()).to.include({ holder: 'b', this_replica: 'b' });
  });

  it('a holder whose renewal lost the race (another wrote the slot) stops at once', async () => {
    const file = new LeaseFile(() => path.join(dir, '.locks'), 5000);
    const a = replica('a', 0, file);
    await a.lease.step();
    const now = await file.read();
    expect(await file.swap(now!.version, { holder: 'intruder', expires_at: null })).to.be.a('string');
    a.tick(L / 3);
    await a.lease.step();
    expect(a.lease.holds()).to.equal(false);
    expect(a.lease.view()).to.include({ holder: 'intruder', this_replica: 'a' });
  });
});
