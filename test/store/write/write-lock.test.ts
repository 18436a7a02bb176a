/**
 * WriteLocks: FIFO per key in one process, independent keys in parallel, proper-lockfile folders
 * across processes (a stale one taken over, a live one waited for up to maxWaitMs).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { expect } from 'chai';
import { NetcfgError } from '../../../src/errors.js';
import { parseNetworkId } from '../../../src/store/files/layout.js';
import { realDisk } from '../../../src/store/write/disk-steps.js';
import { WriteLocks, type HeldLock } from '../../../src/store/write/write-lock.js';
import { makeConfigDir, removeDir } from '../../helpers/fixtures.js';
import { holdLockInChild, type LockHolder } from '../../helpers/write-lock-holder.js';
import { within } from '../../helpers/deadline.js';

const SMALL = { staleMs: 2000, maxWaitMs: 300 };

/** `fn` in the turn of `key`, holding its cross-process lock: what a PATCH that holds it throughout does. */
function withLock<T>(locks: WriteLocks, key: string, fn: (held: HeldLock) => Promise<T>): Promise<T> {
  return locks.inTurn(key, async () => {
    const held = await locks.acquire(parseNetworkId(key)!);
    try {
      return await fn(held);
    } finally {
      await held.release();
    }
  });
}

describe('store/write/write-lock', () => {
  let root: string;
  let locksDir: string;
  let locks: WriteLocks;
  let holder: LockHolder | undefined;
  beforeEach(() => {
    root = makeConfigDir();
    locksDir = path.join(root, '.locks');
    locks = new WriteLocks(locksDir, realDisk, SMALL);
  });
  afterEach(async () => {
    await holder?.kill();
    holder = undefined;
    removeDir(root);
  });

  it('runs holders of one key one at a time, in the order they asked', async () => {
    const order: number[] = [];
    let active = 0;
    let most = 0;
    const runs = Array.from({ length: 8 }, (_, i) =>
      withLock(locks, 'evm:a', async () => {
        active++;
        most = Math.max(most, active);
        order.push(i);
        expect(existsSync(path.join(locksDir, 'evm~a.lock')), 'lock folder while held').to.equal(true);
        for (let k = 0; k < 3; k++) await tick();
        active--;
        return i;
      }),
    );
    expect(await Promise.all(runs)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(order).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(most).to.equal(1);
    await locks.settled();
    expect(readdirSync(locksDir)).to.deep.equal([]);
  });

  it('lets different keys run at the same time', async () => {
    let releaseA!: () => void;
    let aStarted!: () => void;
    const started = new Promise<void>((r) => (aStarted = r));
    const a = withLock(locks, 'evm:a', () => {
      aStarted();
      return new Promise<void>((r) => (releaseA = r));
    });
    await within(started, 5000, 'the first holder');
    // evm:b completes while evm:a is still held; were it queued behind evm:a it would never finish.
    expect(
      await within(
        withLock(locks, 'evm:b', async () => 'b'),
        5000,
        'evm:b while evm:a is held',
      ),
    ).to.equal('b');
    releaseA();
    await a;
  });

  it("passes a holder's error on, releases the lock and lets the next holder run", async () => {
    const failing = withLock(locks, 'evm:a', async () => {
      throw new Error('boom');
    });
    const next = withLock(locks, 'evm:a', async () => 'next');
    expect(await failing.catch((e: Error) => e.message)).to.equal('boom');
    expect(await next).to.equal('next');
    await locks.settled();
    expect(readdirSync(locksDir)).to.deep.equal([]);
  });

  it('takes over a stale lock folder left behind by a dead process', async () => {
    const stale = path.join(locksDir, 'evm~x.lock');
    mkdirSync(stale, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    utimesSync(stale, old, old);
    expect(
      await within(
        withLock(locks, 'evm:x', async () => 'mine'),
        5000,
        'taking the stale lock',
      ),
    ).to.equal('mine');
    await locks.settled();
    expect(existsSync(stale)).to.equal(false);
  });

  it('waits for a lock another process holds and gets it once released', async () => {
    holder = await holdLockInChild(locksDir, 'evm:x');
    let aboutToLock!: () => void;
    const asked = new Promise<void>((r) => (aboutToLock = r));
    // WriteLocks creates the locks folder right before it asks proper-lockfile for the lock.
    const steps = {
      ...realDisk,
      async mkdir(dir: string) {
        await realDisk.mkdir(dir);
        aboutToLock();
      },
    };
    const patient = new WriteLocks(locksDir, steps, { staleMs: 10_000, maxWaitMs: 8000 });
    let releaseAsked = false;
    const run = withLock(patient, 'evm:x', async () => releaseAsked);
    await within(asked, 5000, 'the lock attempt');
    // No event says "still waiting": give a lock that ignored the other process time to show it.
    await new Promise((r) => setTimeout(r, 100));
    releaseAsked = true;
    await holder.release();
    // The holder only releases when asked, so `true` proves the holder waited for it.
    expect(await within(run, 8000, 'the waiting holder')).to.equal(true);
  });

  it('gives up with LOCK_TIMEOUT when another process holds the lock beyond maxWaitMs', async () => {
    holder = await holdLockInChild(locksDir, 'evm:x');
    let ran = false;
    const err = await withLock(locks, 'evm:x', async () => {
      ran = true;
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(NetcfgError);
    expect((err as NetcfgError).code).to.equal('LOCK_TIMEOUT');
    expect(ran).to.equal(false);
    // The other process's lock is left alone.
    expect(existsSync(path.join(locksDir, 'evm~x.lock'))).to.equal(true);
  });

  it('tells the holder when its lock folder was taken from it (compromised)', async () => {
    const err = await withLock(locks, 'evm:c', async (held) => {
      rmSync(path.join(locksDir, 'evm~c.lock'), { recursive: true });
      // proper-lockfile finds out on its next refresh of the folder's mtime (every staleMs / 4).
      const deadline = Date.now() + SMALL.staleMs * 2;
      while (!held.compromised && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return held.compromised;
    });
    expect(err?.message).to.match(/ENOENT|compromised|no such file/i);
    // The next holder of the key takes it afresh.
    expect(
      await within(
        withLock(locks, 'evm:c', async () => 'again'),
        5000,
        'the next holder',
      ),
    ).to.equal('again');
    await locks.settled();
    expect(readdirSync(locksDir)).to.deep.equal([]);
  });
});
