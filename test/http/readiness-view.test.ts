/**
 * http/routes/readiness-view as a table: for each viewer, which words of a full readiness report
 * are told (variable names, relayer names, paths, error text) and which counts stay.
 */
import { expect } from 'chai';
import {
  readinessFor,
  withWorstStatus,
  SECRET_REF_HIDDEN,
  type ReadinessAnswer,
  type Viewer,
} from '../../src/http/routes/readiness-view.js';

const FULL: ReadinessAnswer = {
  ready: true,
  status: 'degraded',
  reason: '2 problem(s) in the config folder; the last valid version of each network is served',
  components: {
    index: {
      status: 'degraded',
      networks: 3,
      loaded_at: '2026-01-01T00:00:00.000Z',
      invalid_files: [
        {
          path: 'evm/sepolia.yaml',
          line: 3,
          column: 5,
          error: 'rpc_urls/0 names the environment variable GONE_SECRET, which is not set',
          unset_secret: 'GONE_SECRET',
        },
        { path: 'solana/devnet.yaml', line: 1, column: 1, error: 'chain_id must be a number' },
        {
          path: 'evm/mainnet.yaml',
          line: 4,
          column: 5,
          error: 'rpc_urls/1 names the environment variable SOL_KEY_URL, which evm:mainnet may not reference',
          secret_ref: 'SOL_KEY_URL',
        },
      ],
    },
    watcher: { status: 'healthy', state: 'watching', last_event_at: null, error: 'EMFILE /srv/config' },
    storage: {
      status: 'degraded',
      error: 'EACCES /srv/config/evm/sepolia.yaml',
      failed_at: '2026-01-01T00:00:00.000Z',
    },
    relayers: {
      status: 'degraded',
      targets: [{ name: 'relayer-eu-secret', state: 'failing', counts: { in_sync: 1 } }],
    },
    rpc: { status: 'healthy', ok: 4, dead: 0, last_round_at: null, auto_disabled: 0 },
    access: {
      status: 'degraded',
      tokens: 7,
      problem: '/etc/netcfg/tokens.yaml:1:1: cannot be read (ENOENT)',
      grace_ends_at: '2026-01-01T00:05:00.000Z',
    },
  },
  timestamp: '2026-01-01T00:00:01.000Z',
};
const WORDS = [
  'GONE_SECRET',
  'SOL_KEY_URL',
  'relayer-eu-secret',
  '/etc/netcfg/tokens.yaml',
  '/srv/config',
  'EACCES',
  'problem(s)',
  'evm/sepolia.yaml',
  'chain_id must be',
];

describe('http/readiness-view (what readiness tells whom)', () => {
  const TABLE: Array<[Viewer, ((id: string) => boolean) | null, string[], string[]]> = [
    // viewer, scope, words told, words never told
    ['everything', null, WORDS, []],
    ['anonymous', null, [], WORDS],
    [
      'read',
      null,
      ['evm/sepolia.yaml', 'chain_id must be', SECRET_REF_HIDDEN],
      [
        'GONE_SECRET',
        'SOL_KEY_URL',
        'relayer-eu-secret',
        '/etc/netcfg/tokens.yaml',
        '/srv/config',
        'EACCES',
        'problem(s)',
      ],
    ],
    [
      'read',
      (id) => id.startsWith('evm:'),
      ['evm/sepolia.yaml'],
      ['chain_id must be', 'GONE_SECRET', 'SOL_KEY_URL', 'relayer-eu-secret', '/etc/netcfg/tokens.yaml'],
    ],
  ];
  for (const [viewer, scope, told, hidden] of TABLE) {
    it(`${viewer}${scope ? ' (scoped to evm:*)' : ''}: tells ${told.length} of the words, hides ${hidden.length}`, () => {
      const text = JSON.stringify(readinessFor(FULL, viewer, scope));
      for (const word of told) expect(text, word).to.include(word);
      for (const word of hidden) expect(text, word).not.to.include(word);
    });
  }

  it("anonymous: the status, and each component's status and counts (a list as its length), nothing else", () => {
    expect(readinessFor(FULL, 'anonymous')).to.deep.equal({
      ready: true,
      status: 'degraded',
      components: {
        index: { status: 'degraded', networks: 3, invalid_files_count: 3 },
        watcher: { status: 'healthy' },
        storage: { status: 'degraded' },
        relayers: { status: 'degraded', targets_count: 1 },
        rpc: { status: 'healthy', ok: 4, dead: 0, auto_disabled: 0 },
        access: { status: 'degraded', tokens: 7 },
      },
      timestamp: '2026-01-01T00:00:01.000Z',
    });
  });

  it('read: the index in full but for the name of a variable a reference names (unset or not allowed); the rest as anonymous', () => {
    const read = readinessFor(FULL, 'read');
    expect(read.components.index?.invalid_files).to.deep.equal([
      { path: 'evm/sepolia.yaml', line: 3, column: 5, error: SECRET_REF_HIDDEN },
      { path: 'solana/devnet.yaml', line: 1, column: 1, error: 'chain_id must be a number' },
      { path: 'evm/mainnet.yaml', line: 4, column: 5, error: SECRET_REF_HIDDEN },
    ]);
    expect(read.components.access).to.deep.equal({ status: 'degraded', tokens: 7 });
    expect(read).not.to.have.property('reason');
  });

  describe("the top-level status is the worst of its components' (never worse than degraded while ready)", () => {
    const c = (status: string): Record<string, unknown> => ({ status });
    const TABLE: Array<[string, boolean, Record<string, Record<string, unknown>>, string]> = [
      ['every component healthy', true, { index: c('healthy'), relayers: c('healthy') }, 'healthy'],
      ['a relayer drifted too long', true, { index: c('healthy'), relayers: c('degraded') }, 'degraded'],
      ['a dead URL', true, { index: c('healthy'), rpc: c('degraded') }, 'degraded'],
      [
        'named tokens refused: degraded, still served',
        true,
        { index: c('healthy'), access: c('unhealthy') },
        'degraded',
      ],
      ['not ready: the store says', false, { index: c('unhealthy'), relayers: c('healthy') }, 'unhealthy'],
    ];
    for (const [what, ready, components, status] of TABLE) {
      it(what, () => {
        const report = { ready, status: ready ? 'healthy' : 'unhealthy', components, timestamp: 't' };
        const out = withWorstStatus(report);
        expect(out.status).to.equal(status);
        if (status === 'degraded') expect(out.reason).to.match(/ is (degraded|unhealthy)/);
      });
    }
  });
});
