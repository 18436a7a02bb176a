/**
 * RPC_AUTO_DISABLE on the built server: the live prober (every second) against fake JSON-RPC
 * endpoints on loopback that move to another chain and back, GIT_COMMIT in a real work tree, and a
 * stand-in relayer (test/helpers/stand-in-relayer.ts) kept in sync. Two verdicts in a row (any span)
 * act, so each case takes a few probe rounds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { startChildren } from '../helpers/child-servers.js';
import { startFakeRpc, type Answer, type FakeRpc } from '../helpers/fake-rpc.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';
import { git, initRepo } from '../helpers/git-repo.js';
import { startStandInRelayer, type StandInRelayer } from '../helpers/stand-in-relayer.js';
import { bareOf, cloneOf, startGitRemote, type GitRemote } from '../helpers/git-daemon.js';

const SEPOLIA = '0xaa36a7';
const HEAL = {
  RPC_PROBE_INTERVAL_MS: '1000',
  RPC_AUTO_DISABLE: 'true',
  RPC_AUTO_DISABLE_PROBES: '2',
  RPC_AUTO_DISABLE_MS: '0',
  GIT_COMMIT: 'true',
};
const fileOf = (urls: string): string =>
  `# sepolia, by hand\nrpc_urls:\n${urls}chain_id: 11155111 # sepolia\nrequired_confirmations: 1\nsymbol: ETH\n`;

describe('probe/auto-heal: RPC_AUTO_DISABLE (built server, fake endpoints, GIT_COMMIT)', function () {
  this.timeout(60_000);
  let root: string;
  let server: ChildServer | undefined;
  const fakes: FakeRpc[] = [];
  let relayer: StandInRelayer | undefined;
  let remote: GitRemote | undefined;
  let replicas: ChildServer[] = [];
  const endpoint = async (): Promise<{ fake: FakeRpc; answers: Record<string, Answer> }> => {
    const answers: Record<string, Answer> = { eth_chainId: { result: SEPOLIA }, eth_blockNumber: { result: '0x64' } };
    const fake = await startFakeRpc(answers);
    fakes.push(fake);
    return { fake, answers };
  };
  const start = async (files: Record<string, string>, env: Record<string, string> = {}): Promise<ChildServer> => {
    root = makeConfigDir(files);
    initRepo(root);
    server = await startChild({ CONFIG_DIR: root, ...HEAL, ...env });
    return server;
  };
  const read = (rel: string): string => readFileSync(path.join(root, rel), 'utf8');
  const logged = (msg: string, network?: string) => (l: Record<string, unknown>) =>
    l.msg === msg && (network === undefined || l.network === network);
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await relayer?.close();
    relayer = undefined;
    await Promise.all(replicas.splice(0).map((r) => r.stop()));
    await remote?.stop();
    if (remote) removeDir(remote.dir);
    remote = undefined;
    await Promise.all(fakes.splice(0).map((f) => f.close()));
    removeDir(root);
  });

  it('a URL on another chain is disabled by a commit with the evidence, the relayer gets it, and its weight comes back when it recovers', async () => {
    const [good, bad] = [await endpoint(), await endpoint()];
    relayer = await startStandInRelayer('relayer-key-0123456789abcdef', [
      {
        id: 'evm:sepolia',
        name: 'sepolia',
        network_type: 'evm',
        rpc_urls: [
          { url: good.fake.url, weight: 100 },
          { url: bad.fake.url, weight: 50 },
        ],
      },
    ]);
    const targets = path.join(makeConfigDir(), 'targets.yaml');
    writeFileSync(targets, `relayers:\n  - name: eu\n    url: ${relayer.url}\n    api_key_env: RELAYER_KEY\n`);
    const s = await start(
      { 'evm/sepolia.yaml': fileOf(`  - ${good.fake.url}\n  - url: ${bad.fake.url} # the backup\n    weight: 50\n`) },
      { RELAYER_SYNC_FILE: targets, RELAYER_SYNC_INTERVAL_MS: '60000', RELAYER_KEY: 'relayer-key-0123456789abcdef' },
    );
    const sent = relayer.nextPatch();
    bad.answers.eth_chainId = { result: '0x1' }; // someone repointed the backup at mainnet
    await s.untilLog(logged('rpc self-healing: URL disabled'), 15_000, 'the disable');
    expect(read('evm/sepolia.yaml'))
      .to.include('weight: 0')
      .and.include('# sepolia, by hand')
      .and.include('chain_id: 11155111 # sepolia');
    expect(
      git(
        root,
        'log',
        '-1',
        '--format=%an|%(trailers:key=Netcfg-Actor,valueonly,separator=%x2C)|%(trailers:key=Netcfg-Rpc-Auto,valueonly,separator=%x2C)|%s',
      ).trim(),
    ).to.match(
      new RegExp(
        '^netcfg rpc-prober\\|system:rpc-prober\\|disabled rpc_urls\\[1\\] weight=50 url=[0-9a-f]{16} status=wrong_chain' +
          '\\|netcfg: disable rpc_urls\\[1\\] of evm:sepolia \\(wrong_chain\\)$',
      ),
    );
    expect(git(root, 'log', '-1', '--format=%b')).to.match(/was wrong_chain for 2 probes in a row, from \S+Z to \S+Z/);
    expect((await sent).body).to.deep.equal({
      rpc_urls: [
        { url: good.fake.url, weight: 100 },
        { url: bad.fake.url, weight: 0 },
      ],
    });
    const health = (await (await fetch(`${s.url}/api/v1/networks/evm:sepolia/rpc-health`)).json()) as {
      data: Array<Record<string, unknown>>;
    };
    expect(health.data[1]).to.include.keys('auto_disabled_at', 'reason');
    expect(
      ((await (await fetch(`${s.url}/api/v1/ready`)).json()) as { components: { rpc: Record<string, unknown> } })
        .components.rpc,
    ).to.include({ auto_disabled: 1 });
    const history = (await (await fetch(`${s.url}/api/v1/networks/evm:sepolia/history`)).json()) as {
      data: Array<{ actor: string }>;
    };
    expect(history.data[0]?.actor).to.equal('system:rpc-prober');
    bad.answers.eth_chainId = { result: SEPOLIA };
    await s.untilLog(logged('rpc self-healing: URL restored'), 15_000, 'the restore');
    expect(read('evm/sepolia.yaml')).to.include('weight: 50').and.include('# sepolia, by hand');
    expect(git(root, 'log', '-1', '--format=%(trailers:key=Netcfg-Rpc-Auto,valueonly)').trim()).to.match(
      /^restored rpc_urls\[1\] weight=50 /,
    );
  });

  it(
    "guards: the last enabled URL stays, a person's commit after the disable keeps the URL theirs, the " +
      'hourly cap holds with twenty networks dark',
    async () => {
      const [good, bad] = [await endpoint(), await endpoint()];
      bad.answers.eth_chainId = { result: '0x1' };
      const files: Record<string, string> = {
        'evm/alone.yaml': fileOf(`  - ${bad.fake.url}a\n`),
        'evm/touched.yaml': fileOf(`  - ${good.fake.url}t\n  - ${bad.fake.url}t\n`),
      };
      for (let i = 0; i < 18; i++)
        files[`evm/n${i}.yaml`] = fileOf(`  - ${good.fake.url}n${i}\n  - ${bad.fake.url}n${i}\n`);
      const s = await start(files, { RPC_AUTO_DISABLE_MAX_PER_HOUR: '2' });
      await s.untilLog(
        (l) => l.msg === 'rpc self-healing: change not made' && l.reason === 'last_url' && l.network === 'evm:alone',
        15_000,
        'the last URL kept',
      );
      await s.untilLog(
        (l) => l.msg === 'rpc self-healing: change not made' && l.reason === 'hourly_cap',
        15_000,
        'the cap reached',
      );
      const disabled = s.logs.filter(logged('rpc self-healing: URL disabled'));
      expect(disabled, 'two changes in the hour, with twenty networks dark at once').to.have.length(2);
      expect(
        git(root, 'log', '--format=%an')
          .split('\n')
          .filter((a) => a === 'netcfg rpc-prober'),
      ).to.have.length(2);
      expect(read('evm/alone.yaml')).to.not.include('weight: 0');
      // A person's commit to a file the prober changed: its URLs are theirs from now on.
      const first = String(disabled[0]?.network);
      const rel = `evm/${first.slice(4)}.yaml`;
      writeFileSync(path.join(root, rel), `${read(rel)}is_testnet: true\n`);
      git(root, '-c', 'user.name=ops', '-c', 'user.email=ops@example.com', 'commit', '-qam', 'ops: mark as testnet');
      await s.untilLog(
        (l) => l.msg === 'index change' && (l.change as { id?: string }).id === first,
        10_000,
        'the edit served',
      );
      bad.answers.eth_chainId = { result: SEPOLIA };
      await s.untilLog(
        (l) => l.msg === 'rpc self-healing: change not made' && l.reason === 'not_ours' && l.network === first,
        15_000,
        "the person's URL left alone",
      );
      // The other one recovered too, but the hour's two changes are spent: its restore waits for the next hour.
      await s.untilLog(
        (l) =>
          l.msg === 'rpc self-healing: change not made' &&
          l.reason === 'hourly_cap' &&
          l.network === disabled[1]?.network,
        15_000,
        'the other restore held by the cap',
      );
      expect(read(rel)).to.include('weight: 0');
    },
  );

  it('two GIT_SYNC replicas seeing the same dark URL make one commit, not two', async () => {
    const [good, bad] = [await endpoint(), await endpoint()];
    remote = await startGitRemote({
      'evm/sepolia.yaml': fileOf(`  - ${good.fake.url}\n  - url: ${bad.fake.url}\n    weight: 40\n`),
    });
    root = makeConfigDir();
    const env = (i: number) => ({
      CONFIG_DIR: path.join(cloneOf(remote as GitRemote, `replica-${i}`), 'config', 'networks'),
      ...HEAL,
      GIT_COMMIT: '',
      GIT_SYNC: 'true',
      GIT_SYNC_INTERVAL_MS: '200',
    });
    replicas = await startChildren([0, 1].map((i) => env(i)));
    bad.answers.eth_chainId = { result: '0x1' };
    const [a, b] = replicas as [ChildServer, ChildServer];
    await Promise.race([a, b].map((r) => r.untilLog(logged('rpc self-healing: URL disabled'), 15_000, 'a disable')));
    // Once both serve the disabled URL, neither can disable it again: a write in flight is refused by its If-Match.
    await Promise.all(
      [a, b].map((r) =>
        r.untilLog(
          (l) => l.msg === 'index change' && (l.change as { id?: string }).id === 'evm:sepolia',
          15_000,
          'the disable served',
        ),
      ),
    );
    const log = git(bareOf(remote), 'log', '--format=%(trailers:key=Netcfg-Actor,valueonly,separator=%x2C)');
    expect(
      log.split('\n').filter((a) => a === 'system:rpc-prober'),
      'one prober commit in the remote',
    ).to.have.length(1);
  });

  it("a restart between the disable and the recovery restores from the commit's record", async () => {
    const [good, bad] = [await endpoint(), await endpoint()];
    const s = await start({
      'evm/sepolia.yaml': fileOf(`  - ${good.fake.url}\n  - url: ${bad.fake.url}\n    weight: 30\n`),
    });
    bad.answers.eth_chainId = { result: '0x1' };
    await s.untilLog(logged('rpc self-healing: URL disabled'), 15_000, 'the disable');
    await s.stop();
    server = await startChild({ CONFIG_DIR: root, ...HEAL });
    await server.untilLog(
      logged('rpc self-healing: a URL it disabled, read back from its commit'),
      15_000,
      'the record read back',
    );
    const health = (await (await fetch(`${server.url}/api/v1/networks/evm:sepolia/rpc-health`)).json()) as {
      data: Array<Record<string, unknown>>;
    };
    expect(health.data[1]).to.include({ reason: 'wrong_chain' }).and.include.keys('auto_disabled_at');
    bad.answers.eth_chainId = { result: SEPOLIA };
    await server.untilLog(logged('rpc self-healing: URL restored'), 15_000, 'the restore after a restart');
    expect(read('evm/sepolia.yaml')).to.include('weight: 30');
  });
});
