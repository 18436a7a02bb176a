/**
 * A network's head by a rule one URL cannot move (head-rule.ts), as a table over judged heads, and
 * once through the prober against fake endpoints on loopback answering 2^53-1.
 */
import { expect } from 'chai';
import type { ProbeStatus, UrlHealth } from '../../src/probe/chain-probe.js';
import { judgeHeads } from '../../src/probe/head-rule.js';
import { DEFAULT_PROBER, Prober } from '../../src/probe/prober.js';
import { startFakeRpc, type FakeRpc } from '../helpers/fake-rpc.js';

const ABSURD = Number.MAX_SAFE_INTEGER; // 2^53-1
const NOW = Date.parse('2025-06-01T00:00:00Z');
type Head = number | [status: ProbeStatus, head: number | null];
type Verdict = [status: ProbeStatus, lag: number | null];

function healthOf(head: Head, i: number): UrlHealth {
  const [status, value] = typeof head === 'number' ? (['ok', head] as const) : head;
  const error = status === 'ok' ? null : 'it said so';
  return {
    url: `https://rpc${i}.example.com`,
    status,
    head: value,
    lag: null,
    latency_ms: 1,
    checked_at: new Date(NOW).toISOString(),
    error,
  };
}

describe("probe/head-rule: the network head is the upper median of its URLs' heads (evm: bound 5)", () => {
  const cases: Array<[string, Head[], Verdict[]]> = [
    [
      'three, one answering 2^53-1: it is bad_response, the others ok',
      [100, 101, ABSURD],
      [
        ['ok', 1],
        ['ok', 0],
        ['bad_response', null],
      ],
    ],
    [
      'three, one a billion (plausible, far ahead): it is not believed',
      [100, 101, 1e9],
      [
        ['ok', 1],
        ['ok', 0],
        ['bad_response', null],
      ],
    ],
    [
      'three, one stuck: it is lagging',
      [50, 100, 101],
      [
        ['lagging', 51],
        ['ok', 1],
        ['ok', 0],
      ],
    ],
    [
      'three within the bound of each other: all ok',
      [100, 103, 98],
      [
        ['ok', 3],
        ['ok', 0],
        ['ok', 5],
      ],
    ],
    [
      'four, one far ahead: the upper median is an honest head',
      [100, 100, 101, 1e9],
      [
        ['ok', 1],
        ['ok', 1],
        ['ok', 0],
        ['bad_response', null],
      ],
    ],
    [
      'four split two against two: the higher pair is the head (stuck nodes are the common failure)',
      [50, 50, 100, 100],
      [
        ['lagging', 50],
        ['lagging', 50],
        ['ok', 0],
        ['ok', 0],
      ],
    ],
    [
      'two, no majority: the higher is believed and the stuck one lagging',
      [100, 200],
      [
        ['lagging', 100],
        ['ok', 0],
      ],
    ],
    [
      'two, the higher above a thousand blocks a second since 1970: it alone is bad_response',
      [100, ABSURD],
      [
        ['ok', 0],
        ['bad_response', null],
      ],
    ],
    ['one URL answering 2^53-1 alone', [ABSURD], [['bad_response', null]]],
    [
      'the wrong chain takes no part, whatever its head',
      [100, 101, ['wrong_chain', 1e9]],
      [
        ['ok', 1],
        ['ok', 0],
        ['wrong_chain', null],
      ],
    ],
    [
      'unreachable URLs take no part',
      [100, ['unreachable', null], 90],
      [
        ['ok', 0],
        ['unreachable', null],
        ['lagging', 10],
      ],
    ],
  ];
  for (const [what, heads, verdicts] of cases) {
    it(what, () => {
      const judged = judgeHeads(heads.map(healthOf), 5, NOW);
      expect(
        judged.map((h) => [h.status, h.lag]),
        judged.map((h) => h.error).join(' | '),
      ).to.deep.equal(verdicts);
    });
  }

  it('says why a head is not believed', () => {
    const [, , far, absurd] = judgeHeads([100, 101, 1e9, ABSURD].map(healthOf), 5, NOW);
    expect(far?.error).to.equal(
      "its head 1000000000 is 999999899 ahead of the median head of this network's URLs, 101 (more than 5): a head most of them do not share is not believed",
    );
    expect(absurd?.error).to.match(/^its head 9007199254740991 is more than any chain has reached/);
  });
});

describe('probe/head-rule through the prober (fake endpoints on loopback)', () => {
  const fakes: FakeRpc[] = [];
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  it('one URL answering eth_blockNumber 2^53-1 among three: it is bad_response, the honest two stay ok', async () => {
    for (const head of ['0x64', '0x65', `0x${ABSURD.toString(16)}`]) {
      fakes.push(await startFakeRpc({ eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: head } }));
    }
    const results = await new Prober({ ...DEFAULT_PROBER, timeoutMs: 2000 }).probeNetwork(
      'evm',
      fakes.map((f) => f.url),
      { chain_id: 11155111 },
    );
    expect(results.map((r) => [r.status, r.head, r.lag])).to.deep.equal([
      ['ok', 100, 1],
      ['ok', 101, 0],
      ['bad_response', ABSURD, null],
    ]);
  });
});
