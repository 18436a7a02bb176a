/**
 * The console's relayers section end to end (the built netcfg with RELAYER_SYNC_FILE on loopback, a
 * stand-in relayer behaving as the relayer's network routes do, headless Chromium): each relayer's
 * state and counts, every network not in sync with why, and the section following the sync live.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { consoleHarness } from '../helpers/console-harness.js';
import { standardFiles } from '../helpers/fixtures.js';
import { startStandInRelayer, type StandInRelayer } from '../helpers/stand-in-relayer.js';

const KEY = 'relayer-key-0123456789abcdef';

describe('console/relayers: the relayers kept in sync (headless Chromium, built netcfg, stand-in relayer on loopback)', function () {
  this.timeout(60_000);
  const h = consoleHarness();
  let relayer: StandInRelayer | undefined;
  let dir = '';
  afterEach(async () => {
    await relayer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  h.test(
    'a relayer refusing a value and lacking a network: both listed with why; fixed on the relayer, the section follows',
    async () => {
      // The relayer holds evm:sepolia (an older value) and solana:devnet, not evm:mainnet; it refuses every PATCH for now.
      relayer = await startStandInRelayer(KEY, [
        {
          id: 'evm:sepolia',
          name: 'sepolia',
          network_type: 'evm',
          rpc_urls: [{ url: 'https://older.example.com', weight: 100 }],
          chain_id: 11155111,
          is_testnet: true,
        },
        {
          id: 'solana:devnet',
          name: 'devnet',
          network_type: 'solana',
          rpc_urls: [{ url: 'https://api.devnet.solana.com', weight: 100 }],
          is_testnet: true,
        },
      ]);
      relayer.mode = 'refuse-patch';
      dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-targets-'));
      const targets = path.join(dir, 'targets.yaml');
      writeFileSync(targets, `relayers:\n  - name: relayer-eu\n    url: ${relayer.url}\n    api_key_env: EU_KEY\n`);
      const url = await h.start(standardFiles(), {
        RELAYER_SYNC_FILE: targets,
        RELAYER_SYNC_INTERVAL_MS: '300',
        EU_KEY: KEY,
      });
      const page = await h.open(url);
      const section = page.getByRole('region', { name: 'Relayers kept in sync' });
      const notInSync = section.getByRole('list', { name: 'Not in sync on relayer-eu' });
      await notInSync.getByText('refused the PATCH (400): Invalid RPC URL configuration').waitFor();
      expect(await notInSync.textContent()).to.include('evm:mainnet: missing: relayer-eu has no network evm:mainnet');
      expect(await section.getByRole('row', { name: /relayer-eu/ }).textContent()).to.include('failing');
      relayer.mode = 'normal';
      await section
        .getByRole('row', { name: /relayer-eu/ })
        .filter({ hasText: 'missing' })
        .waitFor();
      expect(await notInSync.textContent(), 'the refusal is gone once the relayer took the value').to.not.include(
        'refused',
      );
      expect(relayer.networks.get('evm:sepolia')?.rpc_urls[0]?.url).to.not.equal('https://older.example.com');
    },
  );
});
