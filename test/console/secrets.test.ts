/**
 * The console on a network whose RPC URL is a secret reference (the built netcfg on loopback with
 * the variable in its real environment, headless Chromium): the page shows the value masked, and
 * a save of another change sends the mask back, which the server turns into the file's reference:
 * neither the mask nor the value is ever written.
 */
import { expect } from 'chai';
import { consoleHarness } from '../helpers/console-harness.js';

const KEY = 'Kx9aQ2';
const SECRET = `https://eth-mainnet.g.alchemy.com/v2/${KEY}`;

describe('console: a network with a secret RPC URL (headless Chromium, built netcfg on loopback)', function () {
  this.timeout(60_000);
  const h = consoleHarness();

  h.test('shows the secret masked; saving another change keeps its reference in the file', async () => {
    const file =
      '# keyed\nrpc_urls:\n  - type: env # from the environment\n    value: SEPOLIA_SECRET_URL\n' +
      '  - url: https://public.example.com\n    weight: 30\nchain_id: 11155111\n';
    const url = await h.start(
      { 'evm/sepolia.yaml': file },
      { SECRET_REFS_ALLOWED: 'evm:*=SEPOLIA_*', SEPOLIA_SECRET_URL: SECRET },
    );
    const page = await h.open(`${url}/#/networks/evm:sepolia`);
    await page.getByLabel('RPC URL 1').waitFor();
    expect(await page.getByLabel('RPC URL 1').inputValue()).to.equal('https://eth-mainnet.g.alchemy.com/v2/***');
    expect(await page.content()).not.to.include(KEY);
    expect(await page.getByLabel('RPC URL 1').getAttribute('readonly'), 'a mask is not edited').to.not.equal(null);
    await page.getByText("Secret: its value stays in netcfg's environment").waitFor();
    await page.getByLabel('Weight 2').fill('45');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const text = h.read('evm/sepolia.yaml');
    expect(text, 'the reference keeps its own form')
      .to.include('  - type: env')
      .and.include('value: SEPOLIA_SECRET_URL')
      .and.include('weight: 45')
      .and.include('# keyed');
    expect(text).not.to.include('***').and.not.include(KEY);
    expect(await page.getByLabel('RPC URL 1').inputValue(), 'served masked again after the save').to.equal(
      'https://eth-mainnet.g.alchemy.com/v2/***',
    );
  });
});
