/**
 * The relayer lease with GIT_SYNC (lease-ref.ts) on a real bare repository served by `git daemon`
 * on loopback, written from clones of it: compare-and-swap by push, a take-over when a lease runs
 * out (the lease protocol, clocks moved by the test), and the ref kept out of the branch: not in its
 * history, never fetched by a GIT_SYNC store's pulls, which go on while it moves.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Lease } from '../../../src/relayer/lease/lease.js';
import { LEASE_REF, LeaseRef } from '../../../src/store/git/lease-ref.js';
import { ANONYMOUS } from '../../../src/store/actor.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { bareOf, cloneOf, startGitRemote, type GitRemote } from '../../helpers/git-daemon.js';
import { git } from '../../helpers/git-repo.js';
import { networkYaml } from '../../helpers/fixtures.js';
import { startStore } from '../../helpers/store.js';

const slotIn = (clone: string): LeaseRef => new LeaseRef(() => ({ top: clone, remote: 'origin' }), 10_000);

describe('store/git/lease-ref: the relayer lease as a ref of the remote (git daemon on loopback)', function () {
  this.timeout(60_000);
  let remote: GitRemote;
  let stores: NetworkStore[] = [];

  beforeEach(async () => {
    remote = await startGitRemote({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: ['https://sepolia-a.example.com'] }) });
  });
  afterEach(async () => {
    await Promise.all(stores.map((s) => s.close()));
    stores = [];
    await remote.stop();
    rmSync(remote.dir, { recursive: true, force: true });
  });

  it('two contenders pushing from the same version: exactly one wins each compare-and-swap, and both then read the winner', async () => {
    const [a, b] = [slotIn(cloneOf(remote, 'a')), slotIn(cloneOf(remote, 'b'))];
    let expected: string | null = null;
    for (let round = 0; round < 5; round++) {
      const expires = `round ${round}`;
      const won = await Promise.all([
        a.swap(expected, { holder: 'a', expires_at: expires }),
        b.swap(expected, { holder: 'b', expires_at: expires }),
      ]);
      expect(
        won.filter((v) => v !== null),
        `round ${round}`,
      ).to.have.length(1);
      const [readA, readB] = [await a.read(), await b.read()];
      expect(readA).to.deep.equal(readB);
      expect(readA?.version).to.equal(won.find((v) => v !== null));
      expect(readA?.claim.expires_at).to.equal(`round ${round}`);
      // The loser swapping from what it had: refused (a lost race is a lost lease).
      expect(await (won[0] === null ? a : b).swap(expected, { holder: 'late', expires_at: null })).to.equal(null);
      expected = readA!.version;
    }
  });

  it("a holder that stops renewing is taken over once its lease runs out on the other replica's clock", async () => {
    const L = 900;
    const clocks = { a: 0, b: 123_456 };
    const log = { info: () => undefined, warn: () => undefined };
    const lease = (name: 'a' | 'b'): Lease => {
      const storage = slotIn(cloneOf(remote, name));
      return new Lease({ leaseMs: L, replica: name, callMs: 100, storage, log, clock: () => clocks[name] });
    };
    const [a, b] = [lease('a'), lease('b')];
    await a.step();
    await b.step();
    expect([a.holds(), b.holds()]).to.deep.equal([true, false]);
    clocks.b += L - 1; // a is silent: not yet a whole lease on b's clock
    await b.step();
    expect(b.holds()).to.equal(false);
    clocks.a += (3 * L) / 4;
    expect(a.holds(), 'a, unable to renew, is silent before b may take over').to.equal(false);
    clocks.b += 1;
    await b.step();
    expect(b.view()).to.include({ holder: 'b', this_replica: 'b' });
    clocks.b += 100; // the old holder's last call ran out
    expect(b.holds()).to.equal(true);
    clocks.a += L / 3;
    await a.step(); // a's renewal from its old version is refused
    expect(a.holds()).to.equal(false);
    expect(a.view().holder).to.equal('b');
    await b.close();
  });

  it("the ref is in no branch's history, and a GIT_SYNC store's pulls never fetch it and go on while it moves", async () => {
    const writer = slotIn(cloneOf(remote, 'writer'));
    const storeClone = cloneOf(remote, 'store');
    const store = await startStore(path.join(storeClone, 'config', 'networks'), { gitSync: { intervalMs: 3_600_000 } });
    stores.push(store);
    let version: string | null = null;
    for (let i = 0; i < 3; i++) {
      version = await writer.swap(version, { holder: 'writer', expires_at: `renewal ${i}` });
      await store.update('evm:sepolia', { rpc_urls: [`https://sepolia-${i}.example.com`] }, undefined, ANONYMOUS);
      await store.caughtUp();
    }
    expect(version).to.be.a('string');
    const bare = bareOf(remote);
    expect(git(bare, 'for-each-ref', '--format=%(refname)', LEASE_REF).trim()).to.equal(LEASE_REF);
    const history = git(bare, 'rev-list', '--objects', 'main');
    expect(history, 'the branch history').not.to.include(version!);
    expect(git(bare, 'log', '--format=%s', 'main')).not.to.match(/lease/i);
    // The store's clone: no ref for it, and not even its object.
    expect(
      git(storeClone, 'for-each-ref', '--format=%(refname)')
        .split('\n')
        .filter((r) => r.includes('lease')),
    ).to.deep.equal([]);
    expect(() => git(storeClone, 'cat-file', '-e', version!)).to.throw();
    expect(store.readiness().components.git?.status).to.equal('healthy');
    expect(git(storeClone, 'rev-parse', 'HEAD').trim()).to.equal(git(bare, 'rev-parse', 'main').trim());
  });
});
