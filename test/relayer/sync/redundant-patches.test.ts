/**
 * A relayer is sent each value once: a pass whose list was read before netcfg's own PATCH landed (or
 * while it was in flight) does not take it for drift and send the same value again; a drift made by
 * hand on the relayer is still set back. A real store on a real folder of 101 networks (two list pages
 * of 100), one stand-in relayer counting PATCHes; every step is driven by the test through the
 * stand-in's gates (passes are called, their interval is an hour), never by timing.
 */
import { expect } from 'chai';
import { RelayerSync } from '../../../src/relayer/sync/relayer-sync.js';
import { desiredFromStore } from '../../../src/relayer/sync/store-desired.js';
import { ANONYMOUS } from '../../../src/store/actor.js';
import type { NetworkStore } from '../../../src/store/network-store.js';
import { within } from '../../helpers/deadline.js';
import { makeConfigDir, networkYaml, removeDir } from '../../helpers/fixtures.js';
import { startStandInRelayer, type StandInNetwork, type StandInRelayer } from '../../helpers/stand-in-relayer.js';
import { startStore } from '../../helpers/store.js';

const KEY = 'relayer-key-0123456789abcdef';
const ID = 'evm:n000'; // on the list's first page
const SENTINEL = 'evm:n050';
const V = ['https://v0.example.com', 'https://v1.example.com', 'https://v2.example.com', 'https://hand.example.com'];
const name = (i: number): string => `evm/n${String(i).padStart(3, '0')}.yaml`;
const FILES = Object.fromEntries(
  Array.from({ length: 101 }, (_, i) => [name(i), networkYaml({ rpc_urls: [V[0] as string] })]),
);
/** Each network netcfg heard a relayer take a PATCH for (its log line), and who waits for the next. */
const taken: string[] = [];
let heardTaken: () => void = () => undefined;
const log = {
  info: (fields: object, message: string): void => {
    if (message === 'relayer sync: rpc_urls sent') taken.push((fields as { network: string }).network);
    heardTaken();
  },
  warn: () => undefined,
};
/** Resolves once netcfg took the relayer's answer to its `count`-th PATCH of `id`: the relayer applying it is not enough. */
function untilTaken(id: string, count: number): Promise<void> {
  return new Promise((resolve) => {
    heardTaken = () => {
      if (taken.filter((t) => t === id).length >= count) resolve();
    };
    heardTaken();
  });
}

/**
 * Steps: `write n` (V[n] written on netcfg), `patch sent` (the next PATCH reached the relayer), `patch landed` (it was applied),
 * `hold patches` / `release patches` (every PATCH, at the relayer), `pass` (awaited), `pass split` (a pass whose first
 * page is answered and whose second is held), `release lists`, `pass done` (the held pass ended), `hand n` (V[n] set on the relayer by hand).
 */
const CASES: Array<{ name: string; steps: string[]; sent: number[] }> = [
  {
    name: "a change lands between a pass's list pages: the page read before it is not drift",
    steps: ['pass split', 'write 1', 'patch landed', 'release lists', 'pass done'],
    sent: [1],
  },
  {
    name: "a pass lists while the change's PATCH is held at the relayer: the PATCH in flight is not drift",
    steps: ['hold patches', 'write 1', 'patch sent', 'pass', 'release patches', 'patch landed'],
    sent: [1],
  },
  {
    name: 'a newer change while the first is held: both sent, in order, once each',
    steps: ['hold patches', 'write 1', 'patch sent', 'write 2', 'pass', 'release patches', 'patch landed'],
    sent: [1, 2],
  },
  { name: 'a drift made by hand is set back', steps: ['hand 3', 'pass'], sent: [0] },
  {
    name: "a drift made by hand after netcfg's change landed is set back",
    steps: ['write 1', 'patch landed', 'hand 3', 'pass'],
    sent: [1, 1],
  },
  {
    name: "a drift made by hand during a pass that began before netcfg's change landed: set back by the next pass",
    steps: ['pass split', 'write 1', 'patch landed', 'hand 3', 'release lists', 'pass done', 'pass'],
    sent: [1, 1],
  },
];

describe('relayer/sync: a value is sent once, not again by a pass that read the list before it landed', () => {
  let root: string;
  let store: NetworkStore;
  let sync: RelayerSync;
  let relayer: StandInRelayer;

  beforeEach(async () => {
    root = makeConfigDir(FILES);
    store = await startStore(root);
    const seeded = store
      .ids()
      .sort()
      .map((id) => JSON.parse(store.get(id).body).data as StandInNetwork);
    relayer = await startStandInRelayer(KEY, seeded);
    sync = new RelayerSync([{ name: 'eu', url: relayer.url, apiKey: KEY, networks: null }], desiredFromStore(store), {
      intervalMs: 3_600_000,
      timeoutMs: 5000,
      maxBytes: 1 << 20,
      log,
    });
    sync.start();
    await within(sync.passNow(), 5000, 'the first pass');
    expect(
      relayer.requests.filter((q) => q.method === 'PATCH'),
      'in sync from the start',
    ).to.have.length(0);
  });
  afterEach(async () => {
    await sync.close();
    await relayer.close();
    await store.close();
    removeDir(root);
  });

  for (const { name, steps, sent } of CASES) {
    it(`${name}: ${steps.join(', ')}`, async () => {
      const open: { patches?: () => void; lists?: () => void } = {};
      let held: Promise<void> | null = null;
      let landed: Promise<unknown> | null = null;
      let patches = 0;
      let landings = taken.filter((t) => t === ID).length;
      for (const step of steps) {
        const [verb, arg] = step.split(' ') as [string, string | undefined];
        if (verb === 'write') {
          landed ??= relayer.nextPatch();
          await store.update(ID, { rpc_urls: [V[Number(arg)]] }, undefined, ANONYMOUS);
        } else if (step === 'patch sent') await within(relayer.untilRequests(++patches, 'PATCH'), 5000, step);
        else if (step === 'patch landed') {
          await within(landed ?? Promise.reject(new Error('nothing written')), 5000, step);
          landed = null;
          // Landed means netcfg has its answer too: a pass listed before that could not know the value was taken.
          await within(untilTaken(ID, ++landings), 5000, 'netcfg took the answer');
        } else if (step === 'hold patches') relayer.patchGate = new Promise((r) => (open.patches = r));
        else if (step === 'release patches') [relayer.patchGate] = [null, open.patches?.()];
        else if (step === 'pass') await within(sync.passNow(), 5000, step);
        else if (step === 'pass split') {
          const gets = relayer.requests.filter((q) => q.method === 'GET').length;
          // The first page is answered within the request's own turn; the gate is set before the second can arrive.
          const split = relayer
            .untilRequests(gets + 1, 'GET')
            .then(() => void (relayer.listGate = new Promise((r) => (open.lists = r))));
          held = sync.passNow();
          await within(split, 5000, 'the first page');
        } else if (step === 'release lists') [relayer.listGate] = [null, open.lists?.()];
        else if (step === 'pass done') await within(held ?? Promise.resolve(), 5000, step);
        else if (verb === 'hand')
          (relayer.networks.get(ID) as StandInNetwork).rpc_urls = [{ url: V[Number(arg)] as string, weight: 100 }];
        else throw new Error(`unknown step ${step}`);
      }
      // A change queued after every set-back: once it reaches the relayer, everything queued before it was sent.
      const last = relayer.nextPatch();
      await store.update(SENTINEL, { rpc_urls: [V[2]] }, undefined, ANONYMOUS);
      await within(last, 5000, 'the sentinel change');
      const ofId = relayer.requests.filter(
        (q) => q.method === 'PATCH' && q.path === `/api/v1/networks/${encodeURIComponent(ID)}`,
      );
      const got = ofId.map((q) => JSON.parse(q.body) as { rpc_urls: Array<{ url: string }> });
      expect(
        got.map((b) => V.indexOf(b.rpc_urls[0]?.url as string)),
        'the values sent to the relayer, in order',
      ).to.deep.equal(sent);
      expect(relayer.networks.get(ID)?.rpc_urls, 'what the relayer holds at the end').to.deep.equal([
        { url: V[sent.at(-1) as number], weight: 100 },
      ]);
    });
  }
});
