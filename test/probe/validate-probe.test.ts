/**
 * `netcfg validate --probe`, run as CI runs it (the built CLI in a child process) against fake
 * JSON-RPC endpoints on loopback: a URL on the wrong chain or unreachable is a problem at its entry
 * (path:line:column, exit 1), one far behind is a warning (exit 0), a disabled URL is not probed.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/paths.js';
import { makeConfigDir, networkYaml, removeDir, writeFile } from '../helpers/fixtures.js';
import { git, initRepo } from '../helpers/git-repo.js';
import { fingerprint } from '../../src/probe/auto-heal.js';
import { startFakeRpc, type Answer, type FakeRpc } from '../helpers/fake-rpc.js';

const run = promisify(execFile);
const CLI = path.join(PROJECT_ROOT, 'dist', 'src', 'cli.js');
const SEPOLIA: Record<string, Answer> = { eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } };

async function validate(args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [CLI, 'validate', ...args], {
      env: { PATH: process.env.PATH ?? '' },
    });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('probe: netcfg validate --probe (the built CLI, fake endpoints on loopback)', function () {
  this.timeout(30_000);
  let root: string;
  const fakes: FakeRpc[] = [];
  const fake = async (answers: Record<string, Answer>): Promise<string> => {
    const f = await startFakeRpc(answers);
    fakes.push(f);
    return f.url;
  };
  afterEach(async () => {
    removeDir(root);
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  it('the wrong chain and an unreachable URL are problems at their entries (exit 1); a lagging URL is a warning; a disabled URL is not probed', async () => {
    const good = await fake(SEPOLIA);
    const mainnet = await fake({ eth_chainId: { result: '0x1' }, eth_blockNumber: { result: '0x64' } });
    const behind = await fake({ ...SEPOLIA, eth_blockNumber: { result: '0x10' } });
    const closed = await fake(SEPOLIA);
    await fakes.pop()?.close(); // nothing listens on its port any more
    root = makeConfigDir({
      'evm/sepolia.yaml': networkYaml({ rpc_urls: [good, { url: mainnet, weight: 30 }] }),
      'evm/holesky.yaml': networkYaml({ rpc_urls: [`${good}h`, `${behind}`] }),
      'evm/dead.yaml': networkYaml({ rpc_urls: [`${good}d`, { url: closed, weight: 0 }] }),
      'evm/gone.yaml': networkYaml({ rpc_urls: [`${closed}x`] }),
    });
    const { code, stdout } = await validate([root, '--probe']);
    expect(code, stdout).to.equal(1);
    const lines = stdout.trim().split('\n');
    expect(lines).to.have.length(4);
    expect(lines[0]).to.equal(
      `${path.join(root, 'evm/gone.yaml')}:3:5: rpc_urls[0] (${closed}x) is unreachable: ECONNREFUSED: connect ECONNREFUSED ${new URL(closed).host}`,
    );
    expect(lines[1]).to.equal(
      `${path.join(root, 'evm/sepolia.yaml')}:4:10: rpc_urls[1] (${mainnet}) serves another chain: answered chain_id 1; the file says 11155111`,
    );
    expect(lines[2]).to.match(
      new RegExp(
        `^${path.join(root, 'evm/holesky.yaml')}:4:5: warning: rpc_urls\\[1\\] \\(.+\\) is behind: 84 behind the network's head`,
      ),
    );
    expect(lines[3]).to.match(
      /^netcfg: 2 problem\(s\) in 2 file\(s\); 4 networks valid in .+; 6 RPC URLs probed in \d+\.\d s$/,
    );

    const json = JSON.parse((await validate([root, '--probe', '--format', 'json'])).stdout) as {
      ok: boolean;
      problems: unknown[];
      warnings: unknown[];
      probe: { urls: number; seconds: number };
    };
    expect(json).to.include({ ok: false });
    expect(json.problems).to.have.length(2);
    expect(json.warnings).to.have.length(1);
    expect(json.probe.urls).to.equal(6);
  });

  it('only warnings: exit 0; without --probe nothing is asked', async () => {
    const good = await fake(SEPOLIA);
    const behind = await fake({ ...SEPOLIA, eth_blockNumber: { result: '0x10' } });
    root = makeConfigDir({ 'evm/holesky.yaml': networkYaml({ rpc_urls: [good, behind] }) });
    const probed = await validate([root, '--probe']);
    expect(probed.code, probed.stdout).to.equal(0);
    expect(probed.stdout).to.match(/warning: rpc_urls\[1\]/);
    const asked = fakes.map((f) => f.calls.length);
    const plain = await validate([root]);
    expect(plain).to.deep.equal({ code: 0, stdout: `netcfg: 1 networks valid in ${root}\n` });
    expect(fakes.map((f) => f.calls.length)).to.deep.equal(asked);
  });

  it('solana and stellar: another genesis hash or passphrase is a problem at its URL; the claimed ones pass', async () => {
    const GENESIS = 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG';
    const TESTNET = 'Test SDF Network ; September 2015';
    const devnet = await fake({
      getHealth: { result: 'ok' },
      getGenesisHash: { result: GENESIS },
      getSlot: { result: 500 },
    });
    const mainnetBeta = await fake({
      getHealth: { result: 'ok' },
      getGenesisHash: { result: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d' },
      getSlot: { result: 520 },
    });
    const stellar = await fake({
      getNetwork: { result: { passphrase: TESTNET } },
      getLatestLedger: { result: { sequence: 77 } },
    });
    root = makeConfigDir({
      'solana/devnet.yaml': `# devnet\nrpc_urls:\n  - ${devnet}\n  - ${mainnetBeta}\ngenesis_hash: ${GENESIS}\n`,
      'stellar/testnet.yaml': `rpc_urls:\n  - ${stellar}\npassphrase: "${TESTNET}"\n`,
      'stellar/mainnet.yaml': `rpc_urls:\n  - ${stellar}m\npassphrase: "Public Global Stellar Network ; September 2015"\n`,
    });
    const { code, stdout } = await validate([root, '--probe']);
    expect(code, stdout).to.equal(1);
    const lines = stdout.trim().split('\n');
    expect(lines.slice(0, 2)).to.deep.equal([
      `${path.join(root, 'solana/devnet.yaml')}:4:5: rpc_urls[1] (${mainnetBeta}) serves another chain: ` +
        `answered genesis hash 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d; the file says ${GENESIS}`,
      `${path.join(root, 'stellar/mainnet.yaml')}:2:5: rpc_urls[0] (${stellar}m) serves another chain: ` +
        `answered passphrase "${TESTNET}"; the file says "Public Global Stellar Network ; September 2015"`,
    ]);
    expect(lines[2]).to.match(
      /^netcfg: 2 problem\(s\) in 2 file\(s\); 3 networks valid in .+; 4 RPC URLs probed in \d+\.\d s$/,
    );
  });

  it("a URL netcfg's prober disabled, enabled again by hand in the pull request, is a warning at its entry", async () => {
    const good = await fake(SEPOLIA);
    const back = await fake(SEPOLIA);
    root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: [good, { url: back, weight: 30 }] }) });
    initRepo(root);
    writeFile(root, 'evm/sepolia.yaml', networkYaml({ rpc_urls: [good, { url: back, weight: 0 }] }));
    const who = ['-c', 'user.name=netcfg rpc-prober', '-c', 'user.email=netcfg@localhost'];
    git(
      root,
      ...who,
      'commit',
      '-q',
      '-m',
      'netcfg: disable rpc_urls[1] of evm:sepolia (unreachable)',
      '-m',
      `Netcfg-Rpc-Auto: disabled rpc_urls[1] weight=30 url=${fingerprint(back)} status=unreachable\nNetcfg-Actor: system:rpc-prober`,
      '--',
      'evm/sepolia.yaml',
    );
    writeFile(root, 'evm/sepolia.yaml', networkYaml({ rpc_urls: [good, { url: back, weight: 30 }] }));
    git(
      root,
      '-c',
      'user.name=ops',
      '-c',
      'user.email=ops@example.com',
      'commit',
      '-qam',
      'ops: the backup is fine, enable it',
    );
    const { code, stdout } = await validate([root, '--probe']);
    expect(code, stdout).to.equal(0);
    expect(stdout).to.match(
      /evm\/sepolia\.yaml:\d+:\d+: warning: rpc_urls\[1\] \(\S+\) was disabled by netcfg's prober at \S+ \(unreachable\) and is enabled here by hand/,
    );
  });
});
