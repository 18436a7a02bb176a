/**
 * The prober's writes sign only their own change (built server, the live prober every second against
 * fake JSON-RPC endpoints on loopback, GIT_COMMIT in a real work tree): a person's uncommitted edit of
 * another entry's weight, on disk when the prober disables or restores a URL of the same file, is
 * committed first as the working tree's; the prober's commit holds its weight alone.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { startFakeRpc, type Answer, type FakeRpc } from '../helpers/fake-rpc.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';
import { git, initRepo } from '../helpers/git-repo.js';

const SEPOLIA = '0xaa36a7';
const HEAL = {
  RPC_PROBE_INTERVAL_MS: '1000',
  RPC_AUTO_DISABLE: 'true',
  RPC_AUTO_DISABLE_PROBES: '2',
  RPC_AUTO_DISABLE_MS: '0',
  GIT_COMMIT: 'true',
};
const OPERATOR = { GIT_AUTHOR_EMAIL: 'ops@example.com' };
const REL = 'evm/sepolia.yaml';

/** The lines a commit adds and removes. */
const changedLines = (repo: string, rev: string): string[] =>
  git(repo, 'show', '--format=', rev)
    .split('\n')
    .filter((l) => /^[+-]/.test(l) && !/^(\+\+\+|---) /.test(l));

describe('probe/auto-heal: a disable and a restore sign only their own change (built server, GIT_COMMIT)', function () {
  this.timeout(60_000);
  let root: string;
  let server: ChildServer | undefined;
  const fakes: FakeRpc[] = [];
  const endpoint = async (): Promise<{ fake: FakeRpc; answers: Record<string, Answer> }> => {
    const answers: Record<string, Answer> = { eth_chainId: { result: SEPOLIA }, eth_blockNumber: { result: '0x64' } };
    const fake = await startFakeRpc(answers);
    fakes.push(fake);
    return { fake, answers };
  };
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await Promise.all(fakes.splice(0).map((f) => f.close()));
    removeDir(root);
  });

  it("a person's uncommitted weight of the good URL, at the disable and at the restore: its own commit, the prober's its weight alone", async () => {
    const [good, bad] = [await endpoint(), await endpoint()];
    const fileOf = (goodWeight: number, badWeight: number): string =>
      `# sepolia, by hand\nrpc_urls:\n  - url: ${good.fake.url}\n    weight: ${goodWeight}\n  - url: ${bad.fake.url}\n    weight: ${badWeight}\n` +
      'chain_id: 11155111\nsymbol: ETH\n';
    root = makeConfigDir({ [REL]: fileOf(100, 50) });
    initRepo(root);
    const s = await startChild({ CONFIG_DIR: root, ...HEAL, ...OPERATOR });
    server = s;
    // A hand edit of the file on disk, nobody commits it; resolves once it is served.
    const editByHand = async (text: string): Promise<void> => {
      writeFileSync(path.join(root, REL), text);
      const etag = `"${createHash('sha256').update(text).digest('base64url')}"`;
      await s.untilLog(
        (l) => l.msg === 'index change' && (l.change as { etag?: string }).etag === etag,
        10_000,
        'the hand edit served',
      );
    };
    const newest = (count: number): string[] =>
      git(root, 'log', `-${count}`, '--format=%an <%ae>|%(trailers:key=Netcfg-Actor,valueonly,separator=%x2C)')
        .trim()
        .split('\n');
    const handSigns = 'netcfg working-tree <ops@example.com>|system:working-tree';
    const proberSigns = 'netcfg rpc-prober <ops@example.com>|system:rpc-prober';

    await editByHand(fileOf(80, 50));
    bad.answers.eth_chainId = { result: '0x1' }; // someone repointed the second URL at mainnet
    await s.untilLog((l) => l.msg === 'rpc self-healing: URL disabled', 15_000, 'the disable');
    expect(git(root, 'rev-list', '--count', 'HEAD').trim(), 'the seed, the hand edit, the disable').to.equal('3');
    expect(newest(2)).to.deep.equal([proberSigns, handSigns]);
    expect(changedLines(root, 'HEAD~1')).to.deep.equal(['-    weight: 100', '+    weight: 80']);
    expect(changedLines(root, 'HEAD')).to.deep.equal(['-    weight: 50', '+    weight: 0']);

    await editByHand(fileOf(70, 0));
    bad.answers.eth_chainId = { result: SEPOLIA };
    await s.untilLog((l) => l.msg === 'rpc self-healing: URL restored', 15_000, 'the restore');
    expect(git(root, 'rev-list', '--count', 'HEAD').trim(), 'two more: the hand edit, the restore').to.equal('5');
    expect(newest(2)).to.deep.equal([proberSigns, handSigns]);
    expect(changedLines(root, 'HEAD~1')).to.deep.equal(['-    weight: 80', '+    weight: 70']);
    expect(changedLines(root, 'HEAD')).to.deep.equal(['-    weight: 0', '+    weight: 50']);
    expect(readFileSync(path.join(root, REL), 'utf8')).to.equal(fileOf(70, 50));
    expect(git(root, 'status', '--porcelain').trim()).to.equal('');
    const history = (await (await fetch(`${s.url}/api/v1/networks/evm:sepolia/history`)).json()) as {
      data: Array<{ actor: string | null }>;
    };
    expect(history.data.map((h) => h.actor)).to.deep.equal([
      'system:rpc-prober',
      'system:working-tree',
      'system:rpc-prober',
      'system:working-tree',
      null,
    ]);
  });
});
