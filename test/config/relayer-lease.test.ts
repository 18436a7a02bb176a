/**
 * The relayer lease's settings (src/config/relayer.ts): RELAYER_SYNC_LEASE_MS and NETCFG_REPLICA_ID, their
 * defaults, and the refusals (a bad name, a call deadline a new holder could not wait out).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { configFromEnv } from '../../src/config/index.js';

const DEFAULT_ID = `${os.hostname()}-${process.pid}`;

describe('config: the relayer lease', () => {
  let dir: string;
  let base: Record<string, string>;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-config-lease-'));
    const targets = path.join(dir, 'targets.yaml');
    writeFileSync(targets, 'relayers:\n  - name: eu\n    url: http://127.0.0.1:8080\n    api_key_env: EU_KEY\n');
    base = { RELAYER_SYNC_FILE: targets, EU_KEY: 'k'.repeat(32) };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cases: Array<[string, Record<string, string>, { leaseMs: number; replica: string } | RegExp]> = [
    ['defaults', {}, { leaseMs: 15_000, replica: DEFAULT_ID }],
    [
      'set',
      { RELAYER_SYNC_LEASE_MS: '1500', RELAYER_SYNC_TIMEOUT_MS: '1000', NETCFG_REPLICA_ID: 'eu-1.pod:7' },
      { leaseMs: 1500, replica: 'eu-1.pod:7' },
    ],
    ['the name trimmed', { NETCFG_REPLICA_ID: ' eu-1 \n' }, { leaseMs: 15_000, replica: 'eu-1' }],
    ['a name with a space', { NETCFG_REPLICA_ID: 'eu 1' }, /NETCFG_REPLICA_ID must be/],
    ['a lease below 300 ms', { RELAYER_SYNC_LEASE_MS: '299' }, /RELAYER_SYNC_LEASE_MS must be a whole number from 300/],
    [
      'a call deadline over 3/4 of the lease',
      { RELAYER_SYNC_LEASE_MS: '4000', RELAYER_SYNC_TIMEOUT_MS: '3001' },
      /at most three quarters/,
    ],
    [
      'a call deadline of exactly 3/4',
      { RELAYER_SYNC_LEASE_MS: '4000', RELAYER_SYNC_TIMEOUT_MS: '3000' },
      { leaseMs: 4000, replica: DEFAULT_ID },
    ],
  ];
  for (const [name, env, want] of cases) {
    it(name, () => {
      if (want instanceof RegExp) expect(() => configFromEnv({ ...base, ...env })).to.throw(want);
      else expect(configFromEnv({ ...base, ...env }).relayerSync?.lease).to.deep.equal(want);
    });
  }

  it('NETCFG_ settings cannot be named by a secret reference', () => {
    const secrets = configFromEnv({ NETCFG_REPLICA_ID: 'eu-1', SECRET_REFS_ALLOWED: '*:*=*' }).policy.secrets;
    expect(secrets?.('evm:mainnet', 'NETCFG_REPLICA_ID')).to.deep.equal({ allowed: false });
  });
});
