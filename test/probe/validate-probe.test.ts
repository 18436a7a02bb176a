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
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startFakeRpc, type Answer, type FakeRpc } from '../helpers/fake-rpc.js';

const run = promisify(execFile);
const CLI = path.join(PROJECT_ROOT, 'dist', 'src', 'cli.js');
const SEPOLIA: Record<string, Answer> = { eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } };

async function validate(args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [CLI, 'validate', ...args], { env: { PATH: process.env.PATH ?? '' } });
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
    expect(lines[0]).to.equal(`${path.join(root, 'evm/gone.yaml')}:3:5: rpc_urls[0] (${closed}x) is unreachable: ECONNREFUSED: connect ECONNREFUSED ${new URL(closed).host}`);
    expect(lines[1]).to.equal(`${path.join(root, 'evm/sepolia.yaml')}:4:10: rpc_urls[1] (${mainnet}) serves another chain: answered chain_id 1; the file says 11155111`);
    expect(lines[2]).to.match(new RegExp(`^${path.join(root, 'evm/holesky.yaml')}:4:5: warning: rpc_urls\\[1\\] \\(.+\\) is behind: 84 behind the best URL`));
    expect(lines[3]).to.match(/^netcfg: 2 problem\(s\) in 2 file\(s\); 4 networks valid in .+; 6 RPC URLs probed in \d+\.\d s$/);

    const json = JSON.parse((await validate([root, '--probe', '--format', 'json'])).stdout) as { ok: boolean; problems: unknown[]; warnings: unknown[]; probe: { urls: number; seconds: number } };
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
});
