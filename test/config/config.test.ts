/**
 * The environment, read in one place: defaults, every variable, and the refusals that keep a
 * misconfigured netcfg from starting.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { configFromEnv, ConfigError, isLoopback } from '../../src/config/index.js';

const KEY = 'a'.repeat(32);

describe('config', () => {
  it('has the documented defaults', () => {
    const c = configFromEnv({});
    expect(c).to.deep.include({
      host: '127.0.0.1',
      port: 3000,
      configDir: 'config/networks',
      apiKey: undefined,
      logLevel: 'info',
      requireIfMatch: false,
      watchPoll: false,
      lockStaleMs: 5000,
      gitCommit: false,
    });
    expect(c.policy).to.deep.include({ blockPrivate: false, allowedHosts: [] });
    expect(c.timeouts).to.deep.equal({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 });
    expect(c.apiTokensGraceMs, 'API_TOKENS_GRACE_MS: five minutes').to.equal(300_000);
    expect(configFromEnv({ API_TOKENS_GRACE_MS: '0' }).apiTokensGraceMs).to.equal(0);
  });

  it("secret references resolve only as SECRET_REFS_ALLOWED allows, trimmed, never to netcfg's own settings or a proxy's", () => {
    const allowed = 'evm:*=ETH_*,EMPTY ; solana:*-beta=SOL_*;*:*=API_*,GIT_*,*_PROXY,RPC_*,SECRET_*;';
    const env = {
      SECRET_REFS_ALLOWED: allowed,
      ETH_RPC_URL: ' https://eth.example.com/v2/k \n',
      SOL_URL: 'https://sol.example.com/k',
      API_KEY: KEY,
      GIT_SYNC: 'true',
      HTTPS_PROXY: 'http://u:p@proxy',
      RPC_PROBE_INTERVAL_MS: '1000',
      EMPTY: '',
    };
    const secrets = configFromEnv(env).policy.secrets;
    const no = { allowed: false };
    const cases: Array<[string, string, unknown]> = [
      ['evm:mainnet', 'ETH_RPC_URL', { allowed: true, value: 'https://eth.example.com/v2/k' }],
      ['evm:mainnet', 'ETH_NOT_SET', { allowed: true, value: undefined }],
      ['evm:mainnet', 'EMPTY', { allowed: true, value: '' }],
      ['evm:mainnet', 'eth_rpc_url', no], // variables are case-sensitive
      ['evm:mainnet', 'SOL_URL', no],
      ['solana:mainnet-beta', 'SOL_URL', { allowed: true, value: 'https://sol.example.com/k' }],
      ['solana:devnet', 'SOL_URL', no],
      ['solana:mainnet-beta', 'ETH_RPC_URL', no],
      ['evm:mainnet', 'NOT_SET', no],
      ['evm:mainnet', 'API_KEY', no],
      ['evm:mainnet', 'GIT_SYNC', no],
      ['evm:mainnet', 'HTTPS_PROXY', no],
      ['evm:mainnet', 'RPC_PROBE_INTERVAL_MS', no],
      ['evm:mainnet', 'SECRET_REFS_ALLOWED', no],
    ];
    for (const [id, name, answer] of cases) expect(secrets?.(id, name), `${id} ${name}`).to.deep.equal(answer);
    expect(
      configFromEnv({ ETH_RPC_URL: 'https://eth.example.com/v2/k' }).policy.secrets?.('evm:mainnet', 'ETH_RPC_URL'),
      'unset: none',
    ).to.deep.equal(no);
  });

  it("a relayer's key variable (RELAYER_SYNC_FILE) is never a secret reference's, whatever SECRET_REFS_ALLOWED says", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-config-'));
    try {
      const file = path.join(dir, 'relayers.yaml');
      writeFileSync(
        file,
        'relayers:\n  - name: eu\n    url: http://127.0.0.1:8080\n    api_key_env: ETH_RELAYER_KEY\n',
      );
      const env = {
        SECRET_REFS_ALLOWED: 'evm:*=ETH_*',
        RELAYER_SYNC_FILE: file,
        ETH_RELAYER_KEY: 'k'.repeat(32),
        ETH_RPC_URL: 'https://eth.example.com/v2/k',
      };
      const secrets = configFromEnv(env).policy.secrets;
      expect(secrets?.('evm:mainnet', 'ETH_RELAYER_KEY')).to.deep.equal({ allowed: false });
      expect(secrets?.('evm:mainnet', 'ETH_RPC_URL')).to.deep.equal({
        allowed: true,
        value: 'https://eth.example.com/v2/k',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('RPC_AUTO_DISABLE: off by default, its defaults, and refused without the live prober or git to record its changes', () => {
    const on = { RPC_AUTO_DISABLE: 'true', RPC_PROBE_INTERVAL_MS: '60000', GIT_COMMIT: 'true' };
    const cases: Array<[string, Record<string, string>, unknown]> = [
      ['unset', {}, null],
      ['on, defaults', on, { probes: 3, spanMs: 300_000, maxPerHour: 10 }],
      [
        'on, set',
        { ...on, RPC_AUTO_DISABLE_PROBES: '2', RPC_AUTO_DISABLE_MS: '0', RPC_AUTO_DISABLE_MAX_PER_HOUR: '1' },
        { probes: 2, spanMs: 0, maxPerHour: 1 },
      ],
      [
        'on with GIT_SYNC',
        { RPC_AUTO_DISABLE: 'true', RPC_PROBE_INTERVAL_MS: '60000', GIT_SYNC: 'true' },
        { probes: 3, spanMs: 300_000, maxPerHour: 10 },
      ],
      ['no prober', { RPC_AUTO_DISABLE: 'true', GIT_COMMIT: 'true' }, /RPC_PROBE_INTERVAL_MS/],
      ['no git', { RPC_AUTO_DISABLE: 'true', RPC_PROBE_INTERVAL_MS: '60000' }, /GIT_COMMIT or GIT_SYNC/],
      ['zero probes', { ...on, RPC_AUTO_DISABLE_PROBES: '0' }, /RPC_AUTO_DISABLE_PROBES/],
    ];
    for (const [what, env, expected] of cases) {
      if (expected instanceof RegExp) expect(() => configFromEnv(env), what).to.throw(expected);
      else expect(configFromEnv(env).autoHeal, what).to.deep.equal(expected);
    }
  });

  it('reads every variable', () => {
    const c = configFromEnv({
      HOST: '0.0.0.0',
      PORT: '8080',
      CONFIG_DIR: '/srv/n',
      API_KEY: KEY,
      LOG_LEVEL: 'WARN',
      REQUIRE_IF_MATCH: 'true',
      RPC_BLOCK_PRIVATE_IPS: '1',
      RPC_ALLOWED_HOSTS: 'A.com, b.org,',
      WATCH_POLL: 'yes',
      WATCH_POLL_INTERVAL_MS: '250',
      LOCK_STALE_MS: '3000',
      GIT_COMMIT: 'true',
      GIT_AUTHOR_NAME: 'Ops',
      GIT_AUTHOR_EMAIL: 'ops@x.org',
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_TIMEOUT_MS: '2000',
      KEEP_ALIVE_TIMEOUT_MS: '3000',
    });
    expect(c).to.deep.include({
      host: '0.0.0.0',
      port: 8080,
      configDir: '/srv/n',
      apiKey: KEY,
      logLevel: 'warn',
      requireIfMatch: true,
      watchPoll: true,
      watchPollIntervalMs: 250,
      lockStaleMs: 3000,
      gitCommit: true,
    });
    expect(c.policy).to.deep.include({ blockPrivate: true, allowedHosts: ['a.com', 'b.org'] });
    expect(c.gitAuthor).to.deep.equal({ name: 'Ops', email: 'ops@x.org' });
    expect(c.timeouts).to.deep.equal({ headersMs: 1000, requestMs: 2000, keepAliveMs: 3000 });
  });

  const refusals: Array<{ env: Record<string, string>; says: string }> = [
    { env: { API_KEY: 'short' }, says: 'at least 32 characters' },
    { env: { HOST: '0.0.0.0' }, says: 'not a loopback address, and API_KEY is not set' },
    { env: { HOST: '10.0.0.5' }, says: 'not a loopback address' },
    { env: { PORT: '70000' }, says: 'PORT must be a whole number from 0 to 65535' },
    { env: { PORT: '3e3' }, says: 'PORT' },
    { env: { LOG_LEVEL: 'loud' }, says: 'LOG_LEVEL must be one of' },
    { env: { RPC_PROBE_ON_PATCH: 'block' }, says: 'RPC_PROBE_ON_PATCH must be one of off, warn, reject' },
    { env: { REQUIRE_IF_MATCH: 'maybe' }, says: 'REQUIRE_IF_MATCH must be true or false' },
    { env: { LOCK_STALE_MS: '100' }, says: 'LOCK_STALE_MS' },
    { env: { API_TOKENS_GRACE_MS: '5m' }, says: 'API_TOKENS_GRACE_MS must be a whole number from 0 to 604800000' },
    {
      env: { API_KEY: `${KEY.slice(0, 16)} ${KEY.slice(16)}` },
      says: 'API_KEY holds whitespace or control characters',
    },
    { env: { API_KEY: `${KEY}\u0000` }, says: 'API_KEY holds whitespace or control characters' },
    { env: { API_KEY: ' \n' }, says: 'API_KEY holds whitespace or control characters' },
    ...[
      'evm:*',
      'evm:*=',
      '=ETH_*',
      'evm=ETH_*',
      'EVM:*=ETH_*',
      'evm:*=ETH-URL',
      'evm:*=A=B',
      'evm:*=ETH_*,',
      'evm:*=ETH_*;sol ana:*=SOL_*',
    ].map((value) => ({
      env: { SECRET_REFS_ALLOWED: value },
      says: 'SECRET_REFS_ALLOWED must be <network glob>=<variable glob>[,<variable glob>...] pairs separated by ";"',
    })),
  ];
  for (const row of refusals) {
    it(`refuses ${JSON.stringify(row.env)}`, () => {
      expect(() => configFromEnv(row.env)).to.throw(ConfigError, row.says);
    });
  }

  it('takes API_KEY without the whitespace around it (a key file or a secret ending in a newline)', () => {
    for (const raw of [`${KEY}\n`, `${KEY}\r\n`, `  ${KEY}\t`])
      expect(configFromEnv({ API_KEY: raw }).apiKey, JSON.stringify(raw)).to.equal(KEY);
  });

  it('RPC_PROBE_ON_PATCH: off unless set, any case', () => {
    expect(configFromEnv({}).probeOnPatch).to.equal('off');
    expect(configFromEnv({ RPC_PROBE_ON_PATCH: 'Reject' }).probeOnPatch).to.equal('reject');
    expect(configFromEnv({ RPC_PROBE_ON_PATCH: 'warn' }).probeOnPatch).to.equal('warn');
  });

  it('knows loopback hosts', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopback(h), h).to.equal(true);
    for (const h of ['0.0.0.0', '10.0.0.1', 'example.com', '::']) expect(isLoopback(h), h).to.equal(false);
  });
});
