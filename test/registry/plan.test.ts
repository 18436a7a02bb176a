/**
 * planNetwork against loopback stand-ins named in a registry fixture: which URLs are kept (right
 * chain, not lagging, fastest first, at most max), every other one listed with why, the block time
 * measured from the fastest one's head, and the comment naming the registry and its entry.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { DEFAULT_PROBER, Prober } from '../../src/probe/prober.js';
import { loadRegistry } from '../../src/registry/registry-file.js';
import { planNetwork, type AddRequest } from '../../src/registry/plan.js';
import { chainEntry, deadUrl, startChainStandIn, writeRegistry, type ChainStandIn } from '../helpers/chain-stand-in.js';
import { removeDir } from '../helpers/fixtures.js';

describe('registry: planNetwork with probes', () => {
  let dir: string;
  let standIns: ChainStandIn[] = [];
  let prober: Prober;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-plan-'));
    prober = new Prober({ ...DEFAULT_PROBER, timeoutMs: 2000 });
  });
  afterEach(async () => {
    prober.close();
    await Promise.all(standIns.map((s) => s.close()));
    standIns = [];
    removeDir(dir);
  });

  async function world() {
    const [fast, second, slow, wrong, lagging] = await Promise.all([
      startChainStandIn({ chainId: 777, head: 100_000 }),
      startChainStandIn({ chainId: 777, head: 100_000, delayMs: 60 }),
      startChainStandIn({ chainId: 777, head: 100_000, delayMs: 300 }),
      startChainStandIn({ chainId: 778, head: 100_000 }),
      startChainStandIn({ chainId: 777, head: 100 }),
    ]);
    standIns = [fast!, second!, slow!, wrong!, lagging!];
    const dead = await deadUrl();
    const rpc = [
      slow!.url,
      wrong!.url,
      dead,
      fast!.url,
      lagging!.url,
      second!.url,
      'https://x.example.org/${KEY}',
      'wss://127.0.0.1/',
    ];
    const file = writeRegistry(dir, [chainEntry(777, 'Stand In', 'standin', rpc), chainEntry(1, 'Other', 'other', [])]);
    return { fast: fast!, second: second!, slow: slow!, wrong: wrong!, lagging: lagging!, dead, file };
  }

  const request = (more: Partial<AddRequest> = {}): AddRequest => ({
    family: 'evm',
    name: 'standin',
    fields: {},
    fromRegistry: true,
    probe: true,
    max: 2,
    allowHttp: true,
    ...more,
  });

  it('keeps the right chain, not lagging, fastest first, at most max; lists the rest with why; measures the block time', async () => {
    const w = await world();
    const plan = await planNetwork(request(), {
      registry: () => loadRegistry(w.file),
      prober,
      policy: { blockPrivate: false, allowedHosts: [] },
    });
    expect(plan.fields).to.deep.include({
      chain_id: 777,
      symbol: 'TST',
      required_confirmations: 12,
      average_blocktime_ms: 2000,
    });
    expect(plan.fields.rpc_urls).to.deep.equal([w.fast.url, w.second.url]);
    const verdict = Object.fromEntries(plan.candidates.map((c) => [c.url, `${c.status}${c.chosen ? ' chosen' : ''}`]));
    expect(verdict).to.deep.equal({
      [w.fast.url]: 'ok chosen',
      [w.second.url]: 'ok chosen',
      [w.slow.url]: 'ok',
      [w.wrong.url]: 'wrong_chain',
      [w.dead]: 'unreachable',
      [w.lagging.url]: 'lagging',
      'https://x.example.org/${KEY}': 'refused',
      'wss://127.0.0.1/': 'refused',
    });
    expect(
      plan.candidates.filter((c) => !c.chosen).every((c) => typeof c.reason === 'string' && c.reason !== ''),
    ).to.equal(true);
    expect(plan.registry).to.deep.equal({
      source: w.file,
      entry: 'chainId 777 "Stand In" (shortName standin)',
      date: plan.registry?.date,
    });
    expect(plan.comment[0]).to.include(`from the chain registry ${w.file}`);
  });

  it('the request wins over the registry; --no-probe keeps the first max in the registry order, unasked', async () => {
    const w = await world();
    const plan = await planNetwork(request({ probe: false, fields: { symbol: 'OWN', required_confirmations: 3 } }), {
      registry: () => loadRegistry(w.file),
      prober,
      policy: { blockPrivate: false, allowedHosts: [] },
    });
    expect(plan.fields).to.deep.include({
      symbol: 'OWN',
      required_confirmations: 3,
      rpc_urls: [w.slow.url, w.wrong.url],
    });
    expect(plan.fields).not.to.have.property('average_blocktime_ms');
    expect(w.fast.requests + w.slow.requests + w.wrong.requests).to.equal(0);
  });

  it('refusals name what to do: no entry, several entries, a bad registry', async () => {
    const w = await world();
    const deps = { registry: () => loadRegistry(w.file), prober, policy: { blockPrivate: false, allowedHosts: [] } };
    const refused = async (r: AddRequest, registry = deps.registry) =>
      planNetwork(r, { ...deps, registry }).then(
        () => null,
        (err: { code: string; message: string }) => `${err.code}: ${err.message}`,
      );
    expect(await refused(request({ name: 'nope' }))).to.match(
      /^VALIDATION_FAILED: No chain of .* has the shortName or name "nope"/,
    );
    expect(await refused(request({ fields: { chain_id: 5 } }))).to.match(/has the chain id 5; give --chain-id/);
    const twins = writeRegistry(dir, [chainEntry(8, 'Twin', 'a', []), chainEntry(9, 'Twin', 'b', [])]);
    expect(await refused(request({ name: 'twin' }), () => loadRegistry(twins))).to.match(
      /2 chains of .* match "twin"; choose one/,
    );
    expect(await refused(request(), () => loadRegistry(path.join(dir, 'gone.json')))).to.match(
      /^NOT_READY: cannot read the chain registry/,
    );
  });
});
