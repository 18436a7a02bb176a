/**
 * Self-healing beside an endpoint answering an absurd head (built server, fake endpoints on
 * loopback, GIT_COMMIT): the network's head is the median of its URLs' heads (head-rule.ts), so the
 * absurd one alone is `bad_response`, the honest ones stay `ok`, and a URL the prober disabled comes
 * back once it answers like the rest (a restore needs `ok`; with the best head as the network's head it
 * stayed `lagging` for ever).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { startFakeRpc, type Answer, type FakeRpc } from '../helpers/fake-rpc.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';
import { git, initRepo } from '../helpers/git-repo.js';

const SEPOLIA = '0xaa36a7';
const ABSURD = `0x${Number.MAX_SAFE_INTEGER.toString(16)}`;
const HEAL = {
  RPC_PROBE_INTERVAL_MS: '1000',
  RPC_AUTO_DISABLE: 'true',
  RPC_AUTO_DISABLE_PROBES: '2',
  RPC_AUTO_DISABLE_MS: '0',
  GIT_COMMIT: 'true',
};

describe('probe/auto-heal beside an absurd head (built server, fake endpoints, GIT_COMMIT)', function () {
  this.timeout(60_000);
  let root: string;
  let server: ChildServer | undefined;
  const fakes: FakeRpc[] = [];
  const endpoint = async (chainId: string, head: string): Promise<Record<string, Answer>> => {
    const answers: Record<string, Answer> = { eth_chainId: { result: chainId }, eth_blockNumber: { result: head } };
    fakes.push(await startFakeRpc(answers));
    return answers;
  };
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await Promise.all(fakes.splice(0).map((f) => f.close()));
    removeDir(root);
  });

  it('one URL answering 2^53-1 is bad_response, the honest one ok, and a disabled URL that answers like it is restored', async () => {
    await endpoint(SEPOLIA, '0x64');
    const backup = await endpoint('0x1', '0x64'); // on mainnet at first: the prober disables it
    await endpoint(SEPOLIA, ABSURD);
    const [honest, backupUrl, absurd] = fakes.map((f) => f.url);
    const urls = `rpc_urls:\n  - ${honest}\n  - url: ${backupUrl}\n    weight: 50\n  - ${absurd}\n`;
    root = makeConfigDir({ 'evm/sepolia.yaml': `${urls}chain_id: 11155111\nrequired_confirmations: 1\nsymbol: ETH\n` });
    initRepo(root);
    const s = await startChild({ CONFIG_DIR: root, ...HEAL });
    server = s;
    const logged = (msg: string) => (l: Record<string, unknown>) => l.msg === msg;
    await s.untilLog(logged('rpc self-healing: URL disabled'), 15_000, 'the disable');
    backup.eth_chainId = { result: SEPOLIA };
    await s.untilLog(logged('rpc self-healing: URL restored'), 15_000, 'the restore beside the absurd head');
    expect(readFileSync(path.join(root, 'evm/sepolia.yaml'), 'utf8')).to.match(/\n {4}weight: 50\n/);
    expect(git(root, 'log', '-1', '--format=%(trailers:key=Netcfg-Rpc-Auto,valueonly)').trim()).to.match(
      /^restored rpc_urls\[1\] weight=50 /,
    );
    const health = (await (await fetch(`${s.url}/api/v1/networks/evm:sepolia/rpc-health`)).json()) as {
      data: Array<{ status: string; lag: number | null }>;
    };
    expect(health.data.map((h) => h.status)).to.deep.equal(['ok', 'ok', 'bad_response']);
  });
});
