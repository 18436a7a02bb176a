/**
 * `netcfg import relayer` and `netcfg export relayer`, run as a user runs them (the built CLI in a
 * child process) on real folders of relayer network files written for these tests in the relayer's
 * documented format (src/config/config_file/network/ of OpenZeppelin/openzeppelin-relayer v1.8.0).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/paths.js';
import { FIELDS, REQUIRED, RELAYER_TYPES } from '../../src/relayer/format/relayer-types.js';
import { networkOf } from '../../src/store/network-record.js';
import { validateFolder } from '../../src/store/validate-folder.js';
import { OPEN_POLICY } from '../../src/store/validation/url-rules.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';

const run = promisify(execFile);
const CLI = path.join(PROJECT_ROOT, 'dist', 'src', 'cli.js');

async function netcfg(
  args: string[],
  cwd?: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      cwd,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A relayer folder: an evm file with a chain of `from`, a solana and a stellar file. */
const RELAYER_FILES: Record<string, unknown> = {
  'evm.json': {
    networks: [
      {
        type: 'evm',
        network: 'mainnet',
        chain_id: 1,
        required_confirmations: 12,
        symbol: 'ETH',
        rpc_urls: ['https://eth-a.example.com', { url: 'https://eth-b.example.com', weight: 40 }],
        explorer_urls: ['https://scan.example.com'],
        average_blocktime_ms: 12000,
        is_testnet: false,
        tags: ['l1'],
        features: ['eip1559'],
        gas_price_cache: { enabled: true, stale_after_ms: 20000, expire_after_ms: 45000 },
      },
      {
        type: 'evm',
        network: 'sepolia',
        from: 'mainnet',
        chain_id: 11155111,
        rpc_urls: [{ url: 'https://sepolia.example.com' }],
        is_testnet: true,
        tags: ['testnet', 'l1'],
        features: ['optimism'],
      },
      { type: 'evm', network: 'sepolia-fast', from: 'sepolia', required_confirmations: 1 },
    ],
  },
  // Every field of each family's struct (common.rs, solana.rs, stellar.rs).
  'solana.json': {
    networks: [
      {
        type: 'solana',
        network: 'devnet',
        rpc_urls: ['https://sol.example.com'],
        explorer_urls: ['https://explorer.solana.com'],
        average_blocktime_ms: 400,
        is_testnet: true,
        tags: ['devnet'],
      },
    ],
  },
  'stellar.JSON': {
    networks: [
      {
        type: 'stellar',
        network: 'mainnet',
        rpc_urls: ['https://soroban.example.com'],
        explorer_urls: ['https://stellar.expert'],
        average_blocktime_ms: 5000,
        is_testnet: false,
        tags: ['stellar'],
        passphrase: 'Public Global Stellar Network ; September 2015',
        horizon_url: 'https://horizon.example.com',
      },
    ],
  },
  'notes.txt': 'not read: the relayer reads *.json only',
};

function writeRelayerFolder(root: string, files: Record<string, unknown> = RELAYER_FILES): string {
  const dir = path.join(root, 'relayer-networks');
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files))
    writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return dir;
}

/** Every network a config folder serves, as its wire view, by id. */
function served(dir: string): Record<string, Record<string, unknown>> {
  return Object.fromEntries(validateFolder(dir, OPEN_POLICY).records.map((r) => [r.id, networkOf(r)]));
}

const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => statSync(path.join(dir, f)).isFile())
        .sort()
    : [];

describe('netcfg import relayer / export relayer (built CLI, real folders)', () => {
  let root: string;
  beforeEach(() => {
    root = makeConfigDir({});
  });
  afterEach(() => removeDir(root));

  it('imports a folder with `from` resolved as the relayer resolves it; validate passes; a second run changes nothing', async () => {
    const src = writeRelayerFolder(root);
    const out = path.join(root, 'networks');
    const first = await netcfg(['import', 'relayer', src, '--out', out]);
    expect(first.code, first.stderr).to.equal(0);
    expect(filesUnder(out)).to.deep.equal([
      'evm/mainnet.yaml',
      'evm/sepolia-fast.yaml',
      'evm/sepolia.yaml',
      'solana/devnet.yaml',
      'stellar/mainnet.yaml',
    ]);
    const fast = readFileSync(path.join(out, 'evm/sepolia-fast.yaml'), 'utf8');
    expect(fast).to.match(
      /^# Imported from .*evm\.json \(the relayer's evm network "sepolia-fast", inheriting from "sepolia"\)/,
    );
    const networks = served(out);
    expect(networks['evm:sepolia-fast']).to.deep.include({
      chain_id: 11155111,
      required_confirmations: 1,
      symbol: 'ETH',
      tags: ['l1', 'testnet'],
      features: ['eip1559', 'optimism'],
      rpc_urls: [{ url: 'https://sepolia.example.com', weight: 100 }],
    });
    expect(networks['evm:mainnet']?.rpc_urls).to.deep.equal([
      { url: 'https://eth-a.example.com', weight: 100 },
      { url: 'https://eth-b.example.com', weight: 40 },
    ]);
    expect(networks['stellar:mainnet']).to.deep.include({
      explorer_urls: ['https://stellar.expert'],
      average_blocktime_ms: 5000,
      is_testnet: false,
      tags: ['stellar'],
      passphrase: 'Public Global Stellar Network ; September 2015',
      horizon_url: 'https://horizon.example.com',
    });
    expect(networks['solana:devnet']).to.deep.include({
      explorer_urls: ['https://explorer.solana.com'],
      average_blocktime_ms: 400,
      is_testnet: true,
      tags: ['devnet'],
    });
    expect((await netcfg(['validate', out])).code).to.equal(0);
    const before = filesUnder(out).map((f) => statSync(path.join(out, f)).mtimeMs);
    const again = await netcfg(['import', 'relayer', src, '--out', out]);
    expect(again.stdout).to.include('(0 written, 5 unchanged)');
    expect(filesUnder(out).map((f) => statSync(path.join(out, f)).mtimeMs)).to.deep.equal(before);
  });

  it(
    'reads one networks file, a config.json with the list inline, and a config.json naming its folder ' +
      '(relative to where it runs, as the relayer does)',
    async () => {
      const src = writeRelayerFolder(root);
      const inline = path.join(root, 'config.json');
      writeFileSync(
        inline,
        JSON.stringify({ relayers: [], networks: (RELAYER_FILES['solana.json'] as { networks: unknown[] }).networks }),
      );
      const named = path.join(root, 'config-named.json');
      writeFileSync(named, JSON.stringify({ relayers: [], networks: './relayer-networks' }));
      for (const [source, count] of [
        [path.join(src, 'evm.json'), 3],
        [inline, 1],
        [named, 5],
      ] as const) {
        const out = path.join(root, `out-${path.basename(source)}`);
        const result = await netcfg(['import', 'relayer', source, '--out', out], root);
        expect(result.code, result.stderr).to.equal(0);
        expect(filesUnder(out)).to.have.length(count);
      }
    },
  );

  const REFUSED: Array<[string, Record<string, unknown>, string]> = [
    [
      'a from naming no network',
      { 'evm.json': { networks: [{ type: 'evm', network: 'a', from: 'gone' }] } },
      "evm.json:3:5: evm network 'a' inherits from non-existent network 'gone'",
    ],
    [
      'an inheritance loop',
      {
        'evm.json': {
          networks: [
            { type: 'evm', network: 'a', from: 'b' },
            { type: 'evm', network: 'b', from: 'a' },
          ],
        },
      },
      'circular inheritance',
    ],
    [
      'a duplicate across two files',
      {
        'a.json': { networks: [{ type: 'solana', network: 's', rpc_urls: ['https://a.example.com'] }] },
        'b.json': { networks: [{ type: 'solana', network: 's', rpc_urls: ['https://b.example.com'] }] },
      },
      "b.json:3:5: solana network 's' is defined twice (first at",
    ],
    [
      'an unknown field',
      {
        'evm.json': {
          networks: [{ type: 'solana', network: 's', rpc_urls: ['https://a.example.com'], genesis_hash: 'x' }],
        },
      },
      "genesis_hash is not a field of the relayer's solana networks",
    ],
    [
      'what netcfg itself would refuse (33 URLs)',
      {
        'evm.json': {
          networks: [
            {
              type: 'solana',
              network: 's',
              rpc_urls: Array.from({ length: 33 }, (_, i) => `https://u${i}.example.com`),
            },
          ],
        },
      },
      'netcfg would refuse solana:s',
    ],
    [
      'a name netcfg cannot hold',
      { 'evm.json': { networks: [{ type: 'solana', network: 'Main Net', rpc_urls: ['https://a.example.com'] }] } },
      'cannot be a netcfg network name',
    ],
    ['invalid JSON', { 'evm.json': '{"networks": [\n  {"type": "evm",}\n]}' }, 'evm.json:2:'],
  ];
  for (const [name, files, expected] of REFUSED) {
    it(`refuses ${name} with file:line:column, exit 1, and writes nothing`, async () => {
      const src = writeRelayerFolder(root, {
        ...files,
        'ok.json': { networks: [{ type: 'stellar', network: 'fine', rpc_urls: ['https://ok.example.com'] }] },
      });
      const out = path.join(root, 'networks');
      const result = await netcfg(['import', 'relayer', src, '--out', out]);
      expect(result.code).to.equal(1);
      expect(result.stderr).to.include(expected).and.include('nothing was written');
      expect(filesUnder(out)).to.deep.equal([]);
    });
  }

  it('a file that differs is not overwritten without --force, and says which; nothing else is written either', async () => {
    const src = writeRelayerFolder(root);
    const out = makeConfigDir({ 'evm/mainnet.yaml': networkYaml({ rpc_urls: ['https://edited.example.com'] }) });
    try {
      const refused = await netcfg(['import', 'relayer', src, '--out', out]);
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.include(
        `${path.join(out, 'evm/mainnet.yaml')}: differs from what the import would write (--force overwrites it)`,
      );
      expect(filesUnder(out)).to.deep.equal(['evm/mainnet.yaml']);
      const forced = await netcfg(['import', 'relayer', src, '--out', out, '--force']);
      expect(forced.code, forced.stderr).to.equal(0);
      expect(readFileSync(path.join(out, 'evm/mainnet.yaml'), 'utf8')).to.include('https://eth-b.example.com');
    } finally {
      removeDir(out);
    }
  });

  it(
    "export: one file per type, each network flat with only its struct's fields; what the relayer would " +
      'refuse is named on stderr; --strict exits 1',
    async () => {
      const dir = makeConfigDir({
        'evm/sepolia.yaml':
          'rpc_urls:\n  - https://a.example.com\n  - url: https://b.example.com\n    weight: 5\n' +
          'chain_id: 11155111\nsymbol: ETH\nrequired_confirmations: 2\ncustom_field: 1\n',
        'evm/no-symbol.yaml': 'rpc_urls: [https://a.example.com]\nchain_id: 5\nrequired_confirmations: 1\n',
        'solana/devnet.yaml':
          'rpc_urls: [https://s.example.com]\ngenesis_hash: EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG\n',
        'cosmos/hub.yaml': 'rpc_urls: [https://c.example.com]\n',
      });
      try {
        const out = path.join(root, 'relayer');
        const result = await netcfg(['export', 'relayer', dir, '--out', out]);
        expect(result.code).to.equal(0);
        expect(result.stderr)
          .to.include('cosmos:hub: left out; the relayer has no cosmos networks')
          .and.include("evm:sepolia: custom_field left out; the relayer's evm networks have no such field")
          .and.include("solana:devnet: genesis_hash left out; the relayer's solana networks have no such field")
          .and.include('evm:no-symbol: left out; the relayer needs symbol on a evm network');
        expect(readdirSync(out).sort()).to.deep.equal(['.netcfg-export', 'evm.json', 'solana.json']);
        for (const file of ['evm.json', 'solana.json']) {
          const { networks } = JSON.parse(readFileSync(path.join(out, file), 'utf8')) as {
            networks: Array<Record<string, unknown>>;
          };
          for (const network of networks) {
            const type = network.type as (typeof RELAYER_TYPES)[number];
            expect(file).to.equal(`${type}.json`);
            for (const key of Object.keys(network))
              expect(['type', 'network', ...Object.keys(FIELDS[type])], `${file} ${key}`).to.include(key);
            for (const key of [...REQUIRED[type], 'rpc_urls'])
              expect(network[key], `${file} ${String(network.network)} ${key}`).to.not.equal(undefined);
            expect(network).to.not.have.property('from');
          }
        }
        const evm = JSON.parse(readFileSync(path.join(out, 'evm.json'), 'utf8')) as {
          networks: Array<Record<string, unknown>>;
        };
        expect(evm.networks[0]?.rpc_urls, 'rpc_urls in their written form').to.deep.equal([
          'https://a.example.com',
          { url: 'https://b.example.com', weight: 5 },
        ]);
        expect((await netcfg(['export', 'relayer', dir, '--out', out, '--strict'])).code).to.equal(1);
      } finally {
        removeDir(dir);
      }
    },
  );

  it('round trip: import, export, import again gives back the same networks', async () => {
    const src = writeRelayerFolder(root);
    const first = path.join(root, 'first');
    const exported = path.join(root, 'exported');
    const second = path.join(root, 'second');
    expect((await netcfg(['import', 'relayer', src, '--out', first])).code).to.equal(0);
    const exportRun = await netcfg(['export', 'relayer', first, '--out', exported]);
    expect(exportRun.code).to.equal(0);
    expect(exportRun.stderr).to.not.include('left out');
    expect((await netcfg(['import', 'relayer', exported, '--out', second])).code).to.equal(0);
    expect(served(second)).to.deep.equal(served(first));
    const stdout = await netcfg(['export', 'relayer', first, '--out', '-']);
    expect((JSON.parse(stdout.stdout) as { networks: unknown[] }).networks).to.have.length(5);
  });

  it('secret references: --keep-references keeps them, --resolve-secrets writes the values, import reads them back', async () => {
    const dir = path.join(root, 'netcfg');
    mkdirSync(path.join(dir, 'evm'), { recursive: true });
    writeFileSync(
      path.join(dir, 'evm', 'keyed.yaml'),
      'rpc_urls:\n  - type: env\n    value: KEYED_URL\n  - url: https://public.example.com\n    weight: 5\n' +
        'chain_id: 1\nrequired_confirmations: 1\nsymbol: ETH\n',
    );
    const env = { SECRET_REFS_ALLOWED: 'evm:*=KEYED_*', KEYED_URL: 'https://eth.example.com/v2/k3y' };
    const cases: Array<[string, string[], unknown]> = [
      ['references', ['--keep-references'], { type: 'env', value: 'KEYED_URL' }],
      ['resolved', ['--resolve-secrets'], 'https://eth.example.com/v2/k3y'],
    ];
    for (const [what, flags, first] of cases) {
      const out = await netcfg(['export', 'relayer', dir, '--out', '-', ...flags], undefined, env);
      expect(out.code, what).to.equal(0);
      const [network] = (JSON.parse(out.stdout) as { networks: Array<{ rpc_urls: unknown[] }> }).networks;
      expect(network?.rpc_urls, what).to.deep.equal([first, { url: 'https://public.example.com', weight: 5 }]);
    }
    const exported = path.join(root, 'exported');
    expect(
      (await netcfg(['export', 'relayer', dir, '--out', exported, '--keep-references'], undefined, env)).code,
    ).to.equal(0);
    const back = path.join(root, 'back');
    expect((await netcfg(['import', 'relayer', exported, '--out', back], undefined, env)).code).to.equal(0);
    expect(readFileSync(path.join(back, 'evm', 'keyed.yaml'), 'utf8'))
      .to.include('value: KEYED_URL')
      .and.not.include('k3y');
  });
});
