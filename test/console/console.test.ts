/**
 * The operator console end to end: the built netcfg on a loopback port over a real config folder,
 * driven in headless Chromium. Each test gets its own folder and server; no test may leave a
 * console error behind (but for an HTTP error status it provoked on purpose).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, unexpectedErrors, waitForValue, type ConsolePage } from '../helpers/browser.js';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../helpers/fixtures.js';
import { startFakeRpc } from '../helpers/fake-rpc.js';
import { git, initRepo } from '../helpers/git-repo.js';

const KEY = 'console-test-key-0123456789abcdef0123456789';

describe('console: the operator console in headless Chromium (built netcfg on loopback)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let root: string;
  let server: ChildServer | undefined;
  let tab: ConsolePage | undefined;
  let expectedStatuses: number[];

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(() => {
    expectedStatuses = [];
  });
  afterEach(async () => {
    await tab?.context.close();
    tab = undefined;
    await server?.stop();
    server = undefined;
    removeDir(root);
  });
  /** A test whose page must end without a console error (but for the HTTP errors it provoked). */
  const test = (name: string, fn: () => Promise<void>): void => {
    it(name, async () => {
      await fn();
      expect(unexpectedErrors(tab?.errors ?? [], expectedStatuses), 'errors in the browser console').to.deep.equal([]);
    });
  };

  const start = async (files: Record<string, string>, env: Record<string, string> = {}, repo = false): Promise<string> => {
    root = makeConfigDir(files);
    if (repo) initRepo(root);
    server = await startChild({ CONFIG_DIR: root, ...env });
    return server.url;
  };
  const read = (rel: string): string => readFileSync(path.join(root, rel), 'utf8');

  test('sign in: the API key field, a wrong key said so, the right one opens the overview', async () => {
    const url = await start(standardFiles(), { API_KEY: KEY });
    expectedStatuses = [401];
    tab = await openPage(browser, url);
    const { page } = tab;
    await page.getByLabel('API key').fill('not-the-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'That API key was refused' }).waitFor();
    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'evm:sepolia' }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('netcfg.apiKey')")).to.equal(KEY);
    expect(await page.evaluate('localStorage.length'), 'nothing kept beyond the tab').to.equal(0);
  });

  test('filter: the table narrows as you type', async () => {
    const url = await start(standardFiles());
    tab = await openPage(browser, url);
    const { page } = tab;
    await page.getByText('3 of 3 networks').waitFor();
    await page.getByLabel('Filter').pressSequentially('solana');
    await page.getByText('1 of 3 networks').waitFor();
    expect(await page.getByRole('link', { name: /:/ }).allTextContents()).to.deep.equal(['solana:devnet']);
    await page.getByLabel('Filter').fill('11155111 evm');
    await page.getByText('2 of 3 networks').waitFor();
  });

  test('edit and save: the YAML file changes and keeps its comments; Enter in a field saves', async () => {
    const url = await start(standardFiles());
    tab = await openPage(browser, url);
    const { page } = tab;
    await page.getByRole('link', { name: 'evm:sepolia' }).click();
    expect(await page.getByLabel('RPC URL 1').inputValue()).to.equal('https://rpc.example.com');
    expect(await page.getByLabel('Weight 2').inputValue()).to.equal('30');
    await page.getByLabel('RPC URL 1').fill('https://new.example.com');
    const pending = await page.getByRole('list', { name: 'Changes to save' }).textContent();
    expect(pending, 'the diff before Save').to.include('removed: https://rpc.example.com (weight 100)').and.include('added: https://new.example.com (weight 100)');
    await page.getByLabel('Weight 2').fill('0');
    await page.getByRole('button', { name: 'Add URL' }).click();
    expect(await page.evaluate('document.activeElement.id'), 'focus moves to the new field').to.equal('url-2');
    await page.getByLabel('RPC URL 3').fill('https://third.example.com');
    await page.getByLabel('RPC URL 3').press('Enter');
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const text = read('evm/sepolia.yaml');
    expect(text).to.include('# test network').and.include('chain_id: 11155111 # sepolia');
    expect(text).to.include('https://new.example.com').and.include('weight: 0').and.include('https://third.example.com');
    expect(text).to.not.include('https://rpc.example.com');
    await page.getByRole('button', { name: 'Remove URL 3' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(read('evm/sepolia.yaml')).to.not.include('third.example.com');
  });

  test('an invalid URL is refused at its field while typing and on Save; nothing is sent and the file is unchanged', async () => {
    const url = await start(standardFiles());
    const before = read('evm/sepolia.yaml');
    tab = await openPage(browser, `${url}/#/networks/evm:sepolia`);
    const { page } = tab;
    await page.getByLabel('RPC URL 1').fill('ftp://rpc.example.com');
    const problem = page.getByRole('alert').filter({ hasText: 'RPC URL 1 must be an absolute http:// or https:// URL' });
    await problem.waitFor();
    expect(await page.getByLabel('RPC URL 1').getAttribute('aria-invalid')).to.equal('true');
    expect(await page.getByLabel('RPC URL 1').getAttribute('aria-describedby')).to.equal(await problem.getAttribute('id'));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved: fix the fields marked below.' }).waitFor();
    expect(read('evm/sepolia.yaml')).to.equal(before);
    expect(server?.logs.filter((l) => l.method === 'PATCH'), 'no PATCH reached the server').to.deep.equal([]);
  });

  test("the server's details land at their field: a repeated URL", async () => {
    const url = await start(standardFiles());
    const before = read('evm/sepolia.yaml');
    expectedStatuses = [400];
    tab = await openPage(browser, `${url}/#/networks/evm:sepolia`);
    const { page } = tab;
    await page.getByLabel('RPC URL 2').fill('https://rpc.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'RPC URL 2 repeats RPC URL 1' }).waitFor();
    expect(await page.getByLabel('RPC URL 2').getAttribute('aria-invalid')).to.equal('true');
    expect(read('evm/sepolia.yaml')).to.equal(before);
  });

  test('a change on disk while editing: the edit is kept and the change announced; Save is a 412 that offers Reload', async () => {
    const url = await start(standardFiles());
    expectedStatuses = [412];
    tab = await openPage(browser, `${url}/#/networks/evm:sepolia`);
    const { page } = tab;
    await page.getByLabel('RPC URL 1').fill('https://mine.example.com');
    writeFileSync(path.join(root, 'evm/sepolia.yaml'), networkYaml({ rpc_urls: ['https://theirs.example.com'] }));
    await page.getByRole('alert').filter({ hasText: 'changed on the server since you opened it' }).waitFor();
    expect(await page.getByLabel('RPC URL 1').inputValue(), 'the unsaved edit is not overwritten').to.equal('https://mine.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved: this network changed since you opened it' }).waitFor();
    expect(read('evm/sepolia.yaml')).to.include('https://theirs.example.com').and.not.include('mine.example.com');
    await page.getByRole('button', { name: 'Reload' }).click();
    await waitForValue(page, '#url-0', 'https://theirs.example.com');
  });

  test('the banner lists each invalid file as path:line:column with its message', async () => {
    const url = await start({ ...standardFiles(), 'evm/broken.yaml': 'rpc_urls:\n  - https://a.example.com\n chain_id: [\n' });
    tab = await openPage(browser, url);
    const { page } = tab;
    const banner = page.getByRole('region', { name: /1 invalid file/ });
    await banner.waitFor();
    expect(await banner.textContent()).to.match(/evm\/broken\.yaml:\d+:\d+: \S/);
  });

  test('live: a network changed on disk shows its new value in the overview and on its open page, without a reload', async () => {
    const url = await start(standardFiles());
    tab = await openPage(browser, url);
    const { page } = tab;
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'evm:mainnet' }) });
    expect(await row.getByRole('cell').nth(3).textContent()).to.equal('1');
    writeFileSync(path.join(root, 'evm/mainnet.yaml'), networkYaml({ rpc_urls: ['https://eth.example.com', 'https://eth2.example.com'] }));
    await row.getByRole('cell').nth(3).filter({ hasText: /^2$/ }).waitFor();
    await page.getByRole('link', { name: 'evm:mainnet' }).click();
    expect(await page.getByLabel('RPC URL 2').inputValue()).to.equal('https://eth2.example.com');
    writeFileSync(path.join(root, 'evm/mainnet.yaml'), networkYaml({ rpc_urls: ['https://eth3.example.com'] }));
    await page.getByRole('status').filter({ hasText: 'the new version is shown' }).waitFor();
    expect(await page.getByLabel('RPC URL 1').inputValue()).to.equal('https://eth3.example.com');
    expect(await page.getByLabel('RPC URL 2').count()).to.equal(0);
  });

  test('history: each commit with the change it made to rpc_urls; Revert shows the diff, then restores through PATCH', async () => {
    const url = await start(standardFiles(), { GIT_COMMIT: 'true' }, true);
    tab = await openPage(browser, `${url}/#/networks/evm:sepolia`);
    const { page } = tab;
    await page.getByLabel('RPC URL 1').fill('https://edited.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('link', { name: 'History' }).click();
    const change = page.getByRole('list', { name: /^Change made by / }).first();
    await change.waitFor();
    expect(await change.textContent()).to.include('removed: https://rpc.example.com (weight 100)').and.include('added: https://edited.example.com (weight 100)');
    const seed = git(root, 'rev-list', '--max-parents=0', 'HEAD').trim().slice(0, 7);
    await page.getByRole('button', { name: `Revert to ${seed}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.evaluate('document.activeElement.id'), 'focus moves to the dialog').to.equal('revert-title');
    expect(await dialog.getByRole('list').textContent()).to.include('removed: https://edited.example.com').and.include('added: https://rpc.example.com');
    expect(read('evm/sepolia.yaml'), 'nothing changes before Apply').to.include('https://edited.example.com');
    await dialog.getByRole('button', { name: 'Apply revert' }).click();
    await page.getByRole('status').filter({ hasText: `to their version of ${seed}` }).waitFor();
    const text = read('evm/sepolia.yaml');
    expect(text).to.include('https://rpc.example.com').and.include('# sepolia');
    expect(text).to.not.include('edited.example.com');
    await page.locator('.commits > li').nth(2).waitFor();
    expect(await page.locator('.commits > li').count()).to.equal(3);
    await page.getByRole('link', { name: 'Networks' }).click();
    expect(await page.getByRole('region', { name: 'Git' }).textContent()).to.match(/^Git: healthy/);
  });

  test('at phone width nothing overflows sideways, and the overview and a network are usable', async () => {
    const url = await start(standardFiles());
    tab = await openPage(browser, url, { width: 375, height: 740 });
    const { page } = tab;
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

  test('paging: 120 networks are three pages of 50', async () => {
    const files = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`evm/n${String(i).padStart(3, '0')}.yaml`, networkYaml({ rpc_urls: [`https://n${i}.example.com`] })]));
    const url = await start(files);
    tab = await openPage(browser, url);
    const { page } = tab;
    await page.getByText('Page 1 of 3').waitFor();
    expect(await page.getByRole('link', { name: /^evm:/ }).count()).to.equal(50);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 of 3').waitFor();
    expect(await page.getByRole('link', { name: /^evm:/ }).first().textContent()).to.equal('evm:n050');
    await page.getByLabel('Filter').fill('evm:n11');
    await page.getByText('10 of 120 networks').waitFor();
    expect(await page.getByRole('navigation', { name: 'Pages' }).count(), 'one page: no pager').to.equal(0);
  });

  test('with the live prober, the overview and a network show what each URL answered', async () => {
    const rpc = await startFakeRpc({ eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } });
    try {
      const url = await start({ 'evm/sepolia.yaml': networkYaml({ rpc_urls: [rpc.url] }), 'evm/mainnet.yaml': `rpc_urls:\n  - ${rpc.url}\nchain_id: 1\n` }, { RPC_PROBE_INTERVAL_MS: '1000' });
      tab = await openPage(browser, url);
      const { page } = tab;
      const cell = (id: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: id }) }).getByRole('cell').nth(4);
      await cell('evm:sepolia').filter({ hasText: /^1 ok$/ }).waitFor();
      await cell('evm:mainnet').filter({ hasText: /^1 wrong_chain$/ }).waitFor();
      await page.getByRole('link', { name: 'evm:mainnet' }).click();
      await page.getByText('Probe: wrong_chain: answered chain_id 11155111; the file says 1').waitFor();
    } finally {
      await rpc.close();
    }
  });
});
