/**
 * The console on a network whose URL netcfg's prober disabled (the built netcfg on loopback with
 * RPC_AUTO_DISABLE, GIT_COMMIT and a fake endpoint on another chain; headless Chromium): the URL's
 * probe line says it was auto-disabled, history names system:rpc-prober, and Revert undoes it
 * through the ordinary PATCH.
 */
import { expect } from 'chai';
import { consoleHarness } from '../helpers/console-harness.js';
import { startFakeRpc, type FakeRpc } from '../helpers/fake-rpc.js';

describe('console: a URL netcfg disabled by itself (headless Chromium, built netcfg on loopback)', function () {
  this.timeout(60_000);
  const h = consoleHarness();
  const fakes: FakeRpc[] = [];
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  h.test("shows the badge on the URL and the prober's commit in history; Revert brings the weight back", async () => {
    const good = await startFakeRpc({ eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } });
    const mainnet = await startFakeRpc({ eth_chainId: { result: '0x1' }, eth_blockNumber: { result: '0x64' } });
    fakes.push(good, mainnet);
    const file = `# sepolia\nrpc_urls:\n  - ${good.url}\n  - url: ${mainnet.url}\n    weight: 40\nchain_id: 11155111\n`;
    const url = await h.start(
      { 'evm/sepolia.yaml': file },
      {
        GIT_COMMIT: 'true',
        RPC_PROBE_INTERVAL_MS: '1000',
        RPC_AUTO_DISABLE: 'true',
        RPC_AUTO_DISABLE_PROBES: '2',
        RPC_AUTO_DISABLE_MS: '0',
        RPC_AUTO_DISABLE_MAX_PER_HOUR: '1',
      },
      { repo: true },
    );
    await h.server().untilLog((l) => l.msg === 'rpc self-healing: URL disabled', 15_000, 'the disable');
    const page = await h.open(`${url}/#/networks/evm:sepolia`);
    await page.getByText(/auto-disabled by netcfg's prober at \S+ \(wrong_chain/).waitFor();
    expect(await page.getByLabel('Weight 2').inputValue()).to.equal('0');
    await page.getByRole('link', { name: 'History' }).click();
    const who = page.locator('.commits > li .meta');
    await who.first().waitFor();
    expect(await who.first().textContent()).to.match(/^system:rpc-prober, /);
    await page
      .getByRole('button', { name: /^Revert to / })
      .last()
      .click(); // to the seed, before the prober's commit
    await page.getByRole('dialog').getByRole('button', { name: 'Apply revert' }).click();
    await page.getByRole('status').filter({ hasText: 'to their version of' }).waitFor();
    expect(h.read('evm/sepolia.yaml')).to.include('weight: 40');
  });
});
