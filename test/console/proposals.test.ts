/**
 * Proposals in the console (headless Chromium, the built netcfg with GIT_SYNC and GIT_PROPOSALS over
 * a remote served by `git daemon` on loopback, a stand-in GitHub): a propose token is offered
 * "Propose", not "Save"; the 202 shows a link to the pull request and nothing served moves; the
 * network's page lists its open proposals. Under GIT_PROPOSE_ONLY a write token proposes too, a new
 * network as well (Add a network, its chain a loopback stand-in named by a registry file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, unexpectedErrors, type ConsolePage } from '../helpers/browser.js';
import { chainEntry, startChainStandIn, writeRegistry } from '../helpers/chain-stand-in.js';
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

  it('Add a network under GIT_PROPOSE_ONLY: Propose, not Save; the branch holds the new file, nothing is served', async () => {
    const chain = await startChainStandIn({ chainId: 777, head: 5000 });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-console-propose-add-'));
    try {
      const registry = writeRegistry(dir, [chainEntry(777, 'Stand In', 'StandIn', [chain.url])]);
      const w = (world = await startProposalsWorld({
        GIT_PROPOSE_ONLY: 'true',
        CHAIN_REGISTRY_FILE: registry,
        RPC_BLOCK_PRIVATE_IPS: 'false', // the stand-in is on loopback
      }));
      const page = await signIn(w, 'writer');
      await page.goto(`${w.server.url}/#/add-network`);
      await page.getByLabel('Chain name or id').fill('stand');
      await page
        .getByRole('list', { name: 'Registry matches' })
        .getByRole('button', { name: /^Stand In/ })
        .click();
      await page.getByLabel('Allow plain http:// URLs').check();
      await page.getByRole('button', { name: 'Check' }).click();
      await page.getByRole('table', { name: 'Candidate RPC URLs' }).waitFor();
      expect(await page.getByRole('button', { name: 'Save' }).count()).to.equal(0);
      await page.getByRole('button', { name: 'Propose' }).click();
      await page.getByRole('status').filter({ hasText: 'Proposed: pull request #1 opened.' }).waitFor();
      expect(await page.getByRole('link', { name: 'Open the pull request' }).getAttribute('href')).to.equal(
        'https://github.example/octo/networks/pull/1',
      );
      expect(w.forge.pulls[0]?.head).to.equal('netcfg/writer/evm-standin');
      expect(w.bare('show', 'netcfg/writer/evm-standin:config/networks/evm/standin.yaml')).to.include(chain.url);
      expect((await w.call('GET', '/api/v1/networks/evm:standin', 'reader')).status, 'not served').to.equal(404);
      expect(unexpectedErrors(tab!.errors, [401]), 'errors in the browser console').to.deep.equal([]);
    } finally {
      await chain.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
