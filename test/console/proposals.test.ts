/**
 * Proposals in the console (headless Chromium, the built netcfg with GIT_SYNC and GIT_PROPOSALS over
 * a remote served by `git daemon` on loopback, a stand-in GitHub): a propose token is offered
 * "Propose", not "Save"; the 202 shows a link to the pull request and nothing served moves; the
 * network's page lists its open proposals. Under GIT_PROPOSE_ONLY a write token proposes too.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, unexpectedErrors, type ConsolePage } from '../helpers/browser.js';
import { startProposalsWorld, tokenOf, type ProposalsWorld, type TokenName } from '../helpers/proposals-world.js';

describe('console/proposals: Propose, the link to the pull request, the open proposals (headless Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let world: ProposalsWorld | undefined;
  let tab: ConsolePage | undefined;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await tab?.context.close();
    tab = undefined;
    await world?.close();
    world = undefined;
  });

  const signIn = async (w: ProposalsWorld, token: TokenName) => {
    tab = await openPage(browser, `${w.server.url}/#/networks/evm:sepolia`);
    const { page } = tab;
    await page.getByLabel('API key').fill(tokenOf(token));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('RPC URL 1').waitFor();
    return page;
  };

  it('a propose token: Propose (no Save), the 202 with a link to the pull request, the open proposals listed', async () => {
    const w = (world = await startProposalsWorld());
    w.forge.seed({ head: 'netcfg/proposer-us/evm-sepolia', title: "evm:sepolia: a teammate's proposal" });
    const page = await signIn(w, 'proposer-eu');
    const list = page.getByRole('list', { name: 'Open proposals' });
    await list.getByText('by proposer-us').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).to.equal(0);
    await page.getByLabel('RPC URL 1').fill('https://proposed.example.com');
    await page.getByRole('button', { name: 'Propose' }).click();
    await page.getByRole('status').filter({ hasText: 'Proposed: pull request #2 opened.' }).waitFor();
    expect(w.forge.pulls[1]?.head).to.equal('netcfg/proposer-eu/evm-sepolia');
    expect(await page.getByRole('link', { name: 'Open the pull request' }).getAttribute('href')).to.equal(
      'https://github.example/octo/networks/pull/2',
    );
    expect(await page.getByLabel('RPC URL 1').inputValue(), 'what is served, unchanged').to.equal(
      'https://rpc.example.com',
    );
    await list.getByText('by proposer-eu').waitFor();
    expect(await list.locator('li').count()).to.equal(2);
    expect((await w.call('GET', '/api/v1/networks/evm:sepolia', 'reader')).text).to.not.include('proposed.example.com');
    expect(unexpectedErrors(tab!.errors, [401]), 'errors in the browser console').to.deep.equal([]);
  });

  it('a write token under GIT_PROPOSE_ONLY: Propose, not Save, and its branch is pushed', async () => {
    const w = (world = await startProposalsWorld({ GIT_PROPOSE_ONLY: 'true' }));
    const page = await signIn(w, 'writer');
    expect(await page.getByRole('button', { name: 'Save' }).count()).to.equal(0);
    await page.getByLabel('RPC URL 1').fill('https://only.example.com');
    await page.getByRole('button', { name: 'Propose' }).click();
    await page.getByRole('link', { name: 'Open the pull request' }).waitFor();
    expect(w.lsRemote('netcfg/writer/evm-sepolia')).to.not.equal('');
    expect(unexpectedErrors(tab!.errors, [401]), 'errors in the browser console').to.deep.equal([]);
  });
});
