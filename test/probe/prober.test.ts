/**
 * The prober against fake JSON-RPC endpoints on loopback: every outcome for each family, the
 * limits (deadline, answer size, redirects, concurrency), lagging URLs, and blocking of internal
 * addresses at connect time.
 */
import type { LookupFunction } from 'node:net';
import { expect } from 'chai';
import type { Claimed, ProbeStatus } from '../../src/probe/chain-probe.js';
import { DEFAULT_PROBER, Prober, type ProberOptions } from '../../src/probe/prober.js';
import { startFakeRpc, type Answer, type FakeRpc } from '../helpers/fake-rpc.js';

const SEPOLIA = 11155111;
const EVM_OK: Record<string, Answer> = { eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } };
const GENESIS = 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG';
const SOLANA_OK: Record<string, Answer> = {
  getHealth: { result: 'ok' },
  getGenesisHash: { result: GENESIS },
  getSlot: { result: 3000 },
};
const PASSPHRASE = 'Test SDF Network ; September 2015';
const STELLAR_OK: Record<string, Answer> = {
  getNetwork: { result: { passphrase: PASSPHRASE, protocolVersion: 22 } },
  getLatestLedger: { result: { sequence: 500, id: 'x' } },
};
const OPTIONS: ProberOptions = { ...DEFAULT_PROBER, timeoutMs: 400, maxBytes: 4096 };

/** A DNS stand-in that resolves every name to `address`, as a rebinding would. */
function resolvesTo(address: string, family: 4 | 6): LookupFunction {
  return ((
    _host: string,
    options: { all?: boolean },
    callback: (err: null, address: unknown, family?: number) => void,
  ) =>
    options.all ? callback(null, [{ address, family }]) : callback(null, address, family)) as unknown as LookupFunction;
}

describe('probe/prober (fake JSON-RPC endpoints on loopback)', () => {
  const fakes: FakeRpc[] = [];
  const fake = async (
    answers: Record<string, Answer>,
    delayMs = 0,
    options: Parameters<typeof startFakeRpc>[2] = {},
  ): Promise<FakeRpc> => {
    const f = await startFakeRpc(answers, delayMs, options);
    fakes.push(f);
    return f;
  };
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  const cases: Array<{
    name: string;
    family: string;
    answers: Record<string, Answer>;
    claimed: Claimed;
    status: ProbeStatus;
    error?: RegExp;
    answered?: Record<string, unknown>;
  }> = [
    {
      name: 'evm: the chain it claims',
      family: 'evm',
      answers: EVM_OK,
      claimed: { chain_id: SEPOLIA },
      status: 'ok',
      answered: { chain_id: SEPOLIA, head: 100 },
    },
    {
      name: 'evm: mainnet pasted into sepolia',
      family: 'evm',
      answers: { ...EVM_OK, eth_chainId: { result: '0x1' } },
      claimed: { chain_id: SEPOLIA },
      status: 'wrong_chain',
      error: /answered chain_id 1; the file says 11155111/,
      answered: { chain_id: 1 },
    },
    {
      name: 'evm: no chain_id in the file (reachability only)',
      family: 'evm',
      answers: EVM_OK,
      claimed: {},
      status: 'ok',
    },
    {
      name: 'evm: a block number that is not one',
      family: 'evm',
      answers: { ...EVM_OK, eth_blockNumber: { result: 'soon' } },
      claimed: { chain_id: SEPOLIA },
      status: 'bad_response',
      error: /eth_blockNumber/,
    },
    {
      name: 'solana: the genesis it claims',
      family: 'solana',
      answers: SOLANA_OK,
      claimed: { genesis_hash: GENESIS },
      status: 'ok',
      answered: { genesis_hash: GENESIS, head: 3000 },
    },
    {
      name: 'solana: another genesis',
      family: 'solana',
      answers: { ...SOLANA_OK, getGenesisHash: { result: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d' } },
      claimed: { genesis_hash: GENESIS },
      status: 'wrong_chain',
      error: /answered genesis hash 5eykt/,
    },
    {
      name: 'solana: unhealthy node',
      family: 'solana',
      answers: { ...SOLANA_OK, getHealth: { error: 'Node is behind by 42 slots' } },
      claimed: {},
      status: 'bad_response',
      error: /behind by 42/,
    },
    {
      name: 'stellar: the passphrase it claims',
      family: 'stellar',
      answers: STELLAR_OK,
      claimed: { passphrase: PASSPHRASE },
      status: 'ok',
      answered: { passphrase: PASSPHRASE, head: 500 },
    },
    {
      name: 'stellar: the public network instead',
      family: 'stellar',
      answers: {
        ...STELLAR_OK,
        getNetwork: { result: { passphrase: 'Public Global Stellar Network ; September 2015' } },
      },
      claimed: { passphrase: PASSPHRASE },
      status: 'wrong_chain',
      error: /Public Global/,
    },
    {
      name: 'never answers: unreachable after the deadline',
      family: 'evm',
      answers: { eth_chainId: 'hang' },
      claimed: {},
      status: 'unreachable',
      error: /no answer within 400 ms/,
    },
    {
      name: 'answers garbage',
      family: 'evm',
      answers: { eth_chainId: 'garbage' },
      claimed: {},
      status: 'bad_response',
      error: /not JSON/,
    },
    {
      name: 'an endless body is cut at the size cap',
      family: 'evm',
      answers: { eth_chainId: 'endless' },
      claimed: {},
      status: 'bad_response',
      error: /larger than 4096 bytes/,
    },
    {
      name: 'HTTP 500',
      family: 'evm',
      answers: { eth_chainId: { status: 500 } },
      claimed: {},
      status: 'bad_response',
      error: /HTTP 500/,
    },
    {
      name: 'a JSON-RPC error',
      family: 'evm',
      answers: { eth_chainId: { error: 'rate limited' } },
      claimed: {},
      status: 'bad_response',
      error: /rate limited/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const f = await fake(c.answers);
      const [health] = await new Prober(OPTIONS).probeNetwork(c.family, [f.url], c.claimed);
      expect(health?.status, health?.error ?? '').to.equal(c.status);
      if (c.error) expect(health?.error).to.match(c.error);
      else expect(health?.error).to.equal(null);
      if (c.answered) expect(health).to.include(c.answered);
      expect(health?.checked_at).to.be.a('string');
    });
  }

  it('a refused connection is unreachable', async () => {
    const f = await fake(EVM_OK);
    const url = f.url;
    await f.close();
    const [health] = await new Prober(OPTIONS).probeNetwork('evm', [url], {});
    expect(health).to.include({ status: 'unreachable' });
    expect(health?.error).to.match(/ECONNREFUSED/);
  });

  it('a redirect is not followed: bad_response, the target never called, and the target shown redacted', async () => {
    const target = await fake(EVM_OK);
    const f = await fake({ eth_chainId: { redirect: `${target.url}v2/abcdef0123456789abcdef?apikey=s3cret` } });
    const [health] = await new Prober(OPTIONS).probeNetwork('evm', [f.url], { chain_id: SEPOLIA });
    expect(health).to.include({ status: 'bad_response' });
    expect(health?.error).to.match(/redirected \(302\) to http:\/\/127\.0\.0\.1:\d+\/v2\/\*\*\*\?apikey=\*\*\*/);
    expect(health?.error).to.not.include('s3cret');
    expect(target.calls).to.deep.equal([]);
  });

  it('a URL more than the bound behind the best URL of its network is lagging; the wrong chain does not count as best', async () => {
    const best = await fake(EVM_OK);
    const behind = await fake({ ...EVM_OK, eth_blockNumber: { result: '0x50' } });
    const close = await fake({ ...EVM_OK, eth_blockNumber: { result: '0x62' } });
    const wrong = await fake({ eth_chainId: { result: '0x1' }, eth_blockNumber: { result: '0x1000' } });
    const results = await new Prober(OPTIONS).probeNetwork('evm', [best.url, behind.url, close.url, wrong.url], {
      chain_id: SEPOLIA,
    });
    expect(results.map((r) => [r.status, r.lag])).to.deep.equal([
      ['ok', 0],
      ['lagging', 20],
      ['ok', 2],
      ['wrong_chain', null],
    ]);
  });

  it('no more calls in flight than the concurrency cap, over all URLs', async () => {
    const f = await fake(EVM_OK, 30);
    const urls = Array.from({ length: 12 }, (_, i) => `${f.url}?n=${i}`);
    const results = await new Prober({ ...OPTIONS, concurrency: 3 }).probeNetwork('evm', urls, { chain_id: SEPOLIA });
    expect(results.every((r) => r.status === 'ok')).to.equal(true);
    expect(f.maxInFlight).to.be.within(1, 3);
    expect(f.calls).to.have.length(24);
  });

  it('RPC_BLOCK_PRIVATE_IPS: a name that resolves to an internal address is refused at connect time; without it the probe goes through', async () => {
    const f = await fake(EVM_OK);
    const port = new URL(f.url).port;
    // A public-looking name that resolves to loopback, as a DNS rebinding would.
    const lookup = resolvesTo('127.0.0.1', 4);
    const url = `http://rpc.example.com:${port}/`;
    const [blocked] = await new Prober({ ...OPTIONS, blockPrivate: true, lookup }).probeNetwork('evm', [url], {
      chain_id: SEPOLIA,
    });
    expect(blocked).to.include({ status: 'unreachable' });
    expect(blocked?.error).to.match(/rpc\.example\.com resolves to 127\.0\.0\.1, an internal address/);
    expect(f.calls).to.deep.equal([]);
    const [open] = await new Prober({ ...OPTIONS, blockPrivate: false, lookup }).probeNetwork('evm', [url], {
      chain_id: SEPOLIA,
    });
    expect(open).to.include({ status: 'ok' });
    const [literal] = await new Prober({ ...OPTIONS, blockPrivate: true }).probeNetwork('evm', [f.url], {
      chain_id: SEPOLIA,
    });
    expect(literal?.error).to.match(/127\.0\.0\.1 is an internal address/);
    expect(f.calls).to.deep.equal(['eth_chainId', 'eth_blockNumber']); // only the unblocked probe got through
  });

  it('RPC_BLOCK_PRIVATE_IPS: IPv6 forms of internal addresses, written in the URL or answered by DNS, are refused before any connection', async () => {
    const f = await fake(EVM_OK);
    const port = new URL(f.url).port;
    const addresses = [
      '::7f00:1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::a00:1',
      '2002:7f00:1::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      'fec0::1',
      'ff02::1',
    ];
    const prober = new Prober({ ...OPTIONS, blockPrivate: true });
    for (const address of addresses) {
      const lookup = resolvesTo(address, 6);
      const [literal] = await prober.probeNetwork('evm', [`http://[${address}]:${port}/`], { chain_id: SEPOLIA });
      expect(literal?.error, address).to.match(/is an internal address; RPC_BLOCK_PRIVATE_IPS forbids it/);
      const [named] = await new Prober({ ...OPTIONS, blockPrivate: true, lookup }).probeNetwork(
        'evm',
        [`http://rpc.example.com:${port}/`],
        { chain_id: SEPOLIA },
      );
      expect(named?.error, `rpc.example.com -> ${address}`).to.match(
        /resolves to .*, an internal address; RPC_BLOCK_PRIVATE_IPS forbids it/,
      );
    }
    expect(f.connections).to.equal(0);
  });

  it('one request per URL: the calls go as one JSON-RPC batch; an endpoint that refuses batches is asked one call at a time', async () => {
    const batching = await fake(SOLANA_OK);
    const [one] = await new Prober(OPTIONS).probeNetwork('solana', [batching.url], { genesis_hash: GENESIS });
    expect(one).to.include({ status: 'ok', head: 3000 });
    expect(batching.calls).to.deep.equal(['getHealth', 'getGenesisHash', 'getSlot']);
    expect(batching.requests).to.equal(1);
    const refusing = await fake(SOLANA_OK, 0, { noBatch: true });
    const [each] = await new Prober(OPTIONS).probeNetwork('solana', [refusing.url], { genesis_hash: GENESIS });
    expect(each, each?.error ?? '').to.include({ status: 'ok', head: 3000 });
    expect(refusing.requests).to.equal(4); // the refused batch, then each call
  });

  it('connections are kept alive: probing a URL again reuses its connection', async () => {
    const f = await fake(EVM_OK);
    const prober = new Prober(OPTIONS);
    try {
      for (let i = 0; i < 3; i++)
        expect((await prober.probeNetwork('evm', [f.url], { chain_id: SEPOLIA }))[0]).to.include({ status: 'ok' });
    } finally {
      prober.close();
    }
    expect(f.calls).to.have.length(6);
    expect(f.connections).to.equal(1);
  });

  it('a kept-alive connection the endpoint closes as it is reused: the call is retried once on a new connection, not reported unreachable', async () => {
    const f = await fake(EVM_OK, 0, { dropReused: true });
    const prober = new Prober(OPTIONS);
    try {
      for (let round = 0; round < 2; round++) {
        const [health] = await prober.probeNetwork('evm', [f.url], { chain_id: SEPOLIA });
        expect(health, health?.error ?? '').to.include({ status: 'ok', head: 100 });
      }
    } finally {
      prober.close();
    }
    expect(f.requests).to.equal(2); // the dropped request is not answered, so not counted
    expect(f.connections).to.equal(2); // the first (closed when the second round reused it) and the retry's own
  });

  it('a family without a probe is not probed', async () => {
    const prober = new Prober(OPTIONS);
    expect(['evm', 'solana', 'stellar'].map((f) => prober.probes(f))).to.deep.equal([true, true, true]);
    expect(prober.probes('cosmos')).to.equal(false);
  });
});
