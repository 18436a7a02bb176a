/**
 * The built server with every long-lived part on (the live prober and self-healing, the relayer
 * sync and its targets file, the tokens file) exits 0 soon after SIGTERM, even while a probe and a
 * relayer call hang: main closes each part in turn and none keeps the process alive.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startChild, type ChildServer } from './helpers/child-server.js';
import { within } from './helpers/deadline.js';
import { startFakeRpc, type FakeRpc } from './helpers/fake-rpc.js';
import { makeConfigDir, networkYaml, removeDir } from './helpers/fixtures.js';
import { initRepo } from './helpers/git-repo.js';
import { startStandInRelayer, type StandInRelayer } from './helpers/stand-in-relayer.js';

const TOKEN = 't'.repeat(40);
const RELAYER_KEY = 'r'.repeat(40);

const CASES = [
  { name: 'every part idle', hang: false },
  { name: 'a probe and a relayer list hanging', hang: true },
];

describe('main: SIGTERM with every long-lived part on (built server)', () => {
  let root: string;
  let rpc: FakeRpc;
  let relayer: StandInRelayer;
  let child: ChildServer | null = null;
  afterEach(async () => {
    if (child?.process.exitCode === null) await child.stop('SIGKILL');
    child = null;
    await rpc.close();
    await relayer.close();
    removeDir(root);
  });

  for (const row of CASES) {
    it(`exits 0 within 5 s: ${row.name}`, async () => {
      rpc = await startFakeRpc(row.hang ? { eth_chainId: 'hang' } : { eth_chainId: { result: '0xaa36a7' } });
      relayer = await startStandInRelayer(RELAYER_KEY, []);
      if (row.hang) relayer.mode = 'stall';
      root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: [rpc.url] }) });
      initRepo(root); // self-healing's changes are commits
      const tokens = path.join(root, '..', `tokens-${path.basename(root)}.yaml`);
      const sha = createHash('sha256').update(TOKEN).digest('hex');
      writeFileSync(tokens, `tokens:\n  - name: ops\n    sha256: "${sha}"\n    role: admin\n`);
      const targets = path.join(root, '..', `targets-${path.basename(root)}.yaml`);
      writeFileSync(targets, `relayers:\n  - name: r\n    url: ${relayer.url}\n    api_key_env: R_KEY\n`);
      child = await startChild({
        CONFIG_DIR: root,
        API_TOKENS_FILE: tokens,
        RPC_PROBE_INTERVAL_MS: '1000',
        RPC_AUTO_DISABLE: 'true',
        GIT_COMMIT: 'true',
        RELAYER_SYNC_FILE: targets,
        RELAYER_SYNC_INTERVAL_MS: '200',
        R_KEY: RELAYER_KEY,
      });
      // Both talkers are at work: the prober asked the RPC, the sync asked the relayer.
      await rpc.requestsReached(1, 10_000);
      await within(relayer.untilRequests(1, 'GET'), 10_000, 'the relayer sync listing');
      const started = Date.now();
      const code = await within(child.stop('SIGTERM'), 9_000, 'exit after SIGTERM');
      expect(code, 'exit code').to.equal(0);
      expect(Date.now() - started, 'ms from SIGTERM to exit').to.be.below(5000);
      expect(child.logs.some((l) => l.msg === 'stopped')).to.equal(true);
    });
  }
});
