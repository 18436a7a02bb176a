/**
 * The console's view of each relayer end to end (the built netcfg with RELAYER_SYNC_FILE on loopback,
 * a stand-in relayer behaving as the relayer's network routes do (src/api/controllers/network.rs at
 * v1.8.0), headless Chromium): its state, last pass, counts with their time, the latest findings with
 * the relayer's value and netcfg's side by side, the networks only it has, "Sync now", and on a
 * network's page that network's state on the relayer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { consoleHarness } from '../helpers/console-harness.js';
import { standardFiles } from '../helpers/fixtures.js';
import { startStandInRelayer, type StandInRelayer } from '../helpers/stand-in-relayer.js';

const KEY = 'relayer-key-0123456789abcdef';

describe('console/relayer-findings: each relayer, its findings and Sync now (headless Chromium, built netcfg, stand-in relayer)', function () {
  this.timeout(60_000);
  const h = consoleHarness();
  let relayer: StandInRelayer | undefined;
  let dir = '';
  afterEach(async () => {
    await relayer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  h.test(
    'a hand-made drift left in place (self_heal: false), a stale field and an extra network: each shown with both values; Sync now answers',
    async () => {
      relayer = await startStandInRelayer(KEY, [
        {
          id: 'evm:sepolia',
          name: 'sepolia',
          network_type: 'evm',
          rpc_urls: [{ url: 'https://hand-made.example.com', weight: 100 }],
          chain_id: 11155111,
          is_testnet: true,
        }, // netcfg: rpc + backup
        {
          id: 'evm:mainnet',
          name: 'mainnet',
          network_type: 'evm',
          rpc_urls: [{ url: 'https://eth.example.com', weight: 100 }],
          chain_id: 11155111,
          is_testnet: false,
        },
        {
          id: 'solana:devnet',
          name: 'devnet',
          network_type: 'solana',
          rpc_urls: [{ url: 'https://api.devnet.solana.com', weight: 100 }],
          is_testnet: true,
        },
        {
          id: 'evm:only-here',
          name: 'only-here',
          network_type: 'evm',
          rpc_urls: [{ url: 'https://x.example.com', weight: 100 }],
        },
      ]);
      dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-targets-'));
      const targets = path.join(dir, 'targets.yaml');
      writeFileSync(
        targets,
        `relayers:\n  - name: relayer-eu\n    url: ${relayer.url}\n    api_key_env: EU_KEY\n    self_heal: false\n`,
      );
      const url = await h.start(standardFiles(), {
        RELAYER_SYNC_FILE: targets,
        RELAYER_SYNC_INTERVAL_MS: '60000',
        EU_KEY: KEY,
      });
      const page = await h.open(url);
      const section = page.getByRole('region', { name: 'Relayer relayer-eu' });
      const findings = section.getByRole('table', { name: 'Latest findings on relayer-eu' });
      await findings.getByRole('row').filter({ hasText: 'drift' }).waitFor();
      const drift = await findings.getByRole('row').filter({ hasText: 'drift' }).textContent();
      expect(drift)
        .to.include('evm:sepolia')
        .and.include('hand-made.example.com')
        .and.include('https://rpc.example.com');
      const stale = await findings.getByRole('row').filter({ hasText: 'stale' }).textContent();
      expect(stale).to.include('evm:mainnet').and.include('is_testnet').and.include('false').and.include('true');
      expect(await section.textContent())
        .to.include('self_heal off')
        .and.include('as of')
        .and.include('Only on relayer-eu (left alone): evm:only-here');
      await section.getByRole('button', { name: 'Sync relayer-eu now' }).click();
      await section.getByRole('status').filter({ hasText: 'Pass ended: drifted' }).waitFor();
      expect(relayer.networks.get('evm:sepolia')?.rpc_urls, 'the hand-made value left in place').to.deep.equal([
        { url: 'https://hand-made.example.com', weight: 100 },
      ]);
      await page.goto(`${url}/#/networks/evm%3Amainnet`);
      const on = page.getByRole('list', { name: 'evm:mainnet on the relayers' });
      await on.waitFor();
      expect(await on.textContent()).to.include('relayer-eu: stale: is_testnet differs on relayer-eu');
    },
  );
});
