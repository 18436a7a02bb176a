/**
 * The console's overview end to end (the built netcfg on loopback, headless Chromium): sign-in,
 * who is signed in (a table over callers), the filter, paging, the readiness banner, live updates,
 * the probe column, phone width and the keyboard. No test may leave a console error behind, but for one it provoked.
 */
import { expect } from 'chai';
import { consoleHarness, READER, WRITER, type TestToken } from '../helpers/console-harness.js';
import { startFakeRpc } from '../helpers/fake-rpc.js';
import { networkYaml, standardFiles } from '../helpers/fixtures.js';

const KEY = 'console-test-key-0123456789abcdef0123456789';

describe('console/overview: every network at a glance (headless Chromium, built netcfg on loopback)', function () {
  this.timeout(60_000);
  const h = consoleHarness();

  h.test('sign in: the API key field, a wrong key said so, the right one opens the overview', async () => {
    const url = await h.start(standardFiles(), { API_KEY: KEY });
    h.allowErrors(401);
    const page = await h.open(url);
    await page.getByLabel('API key').fill('not-the-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'That API key was refused' }).waitFor();
    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'evm:sepolia' }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('netcfg.apiKey')")).to.equal(KEY);
    expect(await page.evaluate('localStorage.length'), 'nothing kept beyond the tab').to.equal(0);
  });

  h.test(
    'a key the server stops accepting (rotated, the server restarted) brings back the sign-in, saying why',
    async () => {
      const url = await h.start(standardFiles(), { API_KEY: KEY });
      h.allowErrors(401, /ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|ERR_INCOMPLETE_CHUNKED_ENCODING/); // the stream and readiness while it restarts
      const page = await h.open(url);
      await page.getByLabel('API key').fill(KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'evm:sepolia' }).waitFor();
      await h.restart({ API_KEY: `${KEY}-rotated` });
      await page.getByRole('alert').filter({ hasText: 'The API key is no longer accepted; sign in again.' }).waitFor();
      expect(await page.getByLabel('API key').isVisible()).to.equal(true);
      expect(await page.evaluate("sessionStorage.getItem('netcfg.apiKey')")).to.equal(null);
    },
  );

  const CALLERS: Array<{
    who: string;
    env?: Record<string, string>;
    tokens?: TestToken[];
    key?: string;
    header: string;
  }> = [
    { who: 'no token configured (open on loopback)', header: 'No token needed (loopback)' },
    { who: "API_KEY's holder", env: { API_KEY: KEY }, key: KEY, header: 'Signed in as api-key (admin)' },
    { who: 'a read token', tokens: [READER, WRITER], key: READER.token, header: 'Signed in as relayer-eu (read)' },
    { who: 'a write token', tokens: [READER, WRITER], key: WRITER.token, header: 'Signed in as ops-alice (write)' },
  ];
  for (const caller of CALLERS) {
    h.test(`the header says who is signed in: ${caller.who}`, async () => {
      const url = await h.start(standardFiles(), caller.env, { tokens: caller.tokens });
      h.allowErrors(401); // the console first asks without a key
      const page = await h.open(url);
      if (caller.key) {
        await page.getByLabel('API key').fill(caller.key);
        await page.getByRole('button', { name: 'Sign in' }).click();
      }
      await page.getByRole('banner').getByText(caller.header, { exact: true }).waitFor();
      await page.getByRole('link', { name: 'evm:sepolia' }).waitFor();
    });
  }

  h.test('filter: the table narrows as you type', async () => {
    const url = await h.start(standardFiles());
    const page = await h.open(url);
    await page.getByText('3 of 3 networks').waitFor();
    await page.getByLabel('Filter').pressSequentially('solana');
    await page.getByText('1 of 3 networks').waitFor();
    expect(await page.getByRole('link', { name: /:/ }).allTextContents()).to.deep.equal(['solana:devnet']);
    await page.getByLabel('Filter').fill('11155111 evm');
    await page.getByText('2 of 3 networks').waitFor();
  });

  h.test('the banner lists each invalid file as path:line:column with its message', async () => {
    const url = await h.start({
      ...standardFiles(),
      'evm/broken.yaml': 'rpc_urls:\n  - https://a.example.com\n chain_id: [\n',
    });
    const page = await h.open(url);
    const banner = page.getByRole('region', { name: /1 invalid file/ });
    await banner.waitFor();
    expect(await banner.textContent()).to.match(/evm\/broken\.yaml:\d+:\d+: \S/);
  });

  h.test(
    'live: a network changed on disk shows its new value in the overview and on its open page, without a reload',
    async () => {
      const url = await h.start(standardFiles());
      const page = await h.open(url);
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'evm:mainnet' }) });
      expect(await row.getByRole('cell').nth(3).textContent()).to.equal('1');
      h.write('evm/mainnet.yaml', networkYaml({ rpc_urls: ['https://eth.example.com', 'https://eth2.example.com'] }));
      await row.getByRole('cell').nth(3).filter({ hasText: /^2$/ }).waitFor();
      await page.getByRole('link', { name: 'evm:mainnet' }).click();
      expect(await page.getByLabel('RPC URL 2').inputValue()).to.equal('https://eth2.example.com');
      h.write('evm/mainnet.yaml', networkYaml({ rpc_urls: ['https://eth3.example.com'] }));
      await page.getByRole('status').filter({ hasText: 'the new version is shown' }).waitFor();
      expect(await page.getByLabel('RPC URL 1').inputValue()).to.equal('https://eth3.example.com');
      expect(await page.getByLabel('RPC URL 2').count()).to.equal(0);
    },
  );

  h.test('at phone width nothing overflows sideways, and the overview and a network are usable', async () => {
    const url = await h.start(standardFiles());
    const page = await h.open(url, { width: 375, height: 740 });
    await page.getByText('3 of 3 networks').waitFor();
    const overflow = (): Promise<boolean> => page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
    expect(await overflow()).to.equal(false);
    // By keyboard alone: type in Filter, Tab to the one link left, Enter opens it.
    await page.getByLabel('Filter').focus();
    await page.keyboard.type('sepolia');
    await page.getByText('1 of 3 networks').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByLabel('RPC URL 1').waitFor();
    expect(await overflow()).to.equal(false);
  });

  h.test('paging: 120 networks are three pages of 50', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [
        `evm/n${String(i).padStart(3, '0')}.yaml`,
        networkYaml({ rpc_urls: [`https://n${i}.example.com`] }),
      ]),
    );
    const url = await h.start(files);
    const page = await h.open(url);
    await page.getByText('Page 1 of 3').waitFor();
    expect(await page.getByRole('link', { name: /^evm:/ }).count()).to.equal(50);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 of 3').waitFor();
    expect(await page.getByRole('link', { name: /^evm:/ }).first().textContent()).to.equal('evm:n050');
    await page.getByLabel('Filter').fill('evm:n11');
    await page.getByText('10 of 120 networks').waitFor();
    expect(await page.getByRole('navigation', { name: 'Pages' }).count(), 'one page: no pager').to.equal(0);
  });

  h.test(
    'with the live prober, the overview and a network show what each URL answered (a URL with a key too, which the server shows redacted)',
    async () => {
      const rpc = await startFakeRpc({ eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } });
      try {
        const keyed = `${rpc.url}v2/abcdef0123456789abcdef?apikey=topsecret`;
        const url = await h.start(
          {
            'evm/sepolia.yaml': networkYaml({ rpc_urls: [rpc.url] }),
            'evm/mainnet.yaml': `rpc_urls:\n  - ${rpc.url}\n  - ${keyed}\nchain_id: 1\n`,
          },
          { RPC_PROBE_INTERVAL_MS: '1000' },
        );
        const page = await h.open(url);
        const cell = (id: string) =>
          page
            .getByRole('row')
            .filter({ has: page.getByRole('link', { name: id }) })
            .getByRole('cell')
            .nth(4);
        await cell('evm:sepolia')
          .filter({ hasText: /^1 ok$/ })
          .waitFor();
        await cell('evm:mainnet')
          .filter({ hasText: /^2 wrong_chain$/ })
          .waitFor();
        await page.getByRole('link', { name: 'evm:mainnet' }).click();
        const finding = page.getByText('Probe: wrong_chain: answered chain_id 11155111; the file says 1');
        await finding.nth(1).waitFor(); // each URL's, the keyed one's matched by its index
        expect(await finding.count()).to.equal(2);
      } finally {
        await rpc.close();
      }
    },
  );
});
