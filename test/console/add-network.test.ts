/**
 * "Add a network" end to end (the built netcfg on loopback, headless Chromium): a registry fixture
 * in ethereum-lists' format (CHAIN_REGISTRY_FILE) whose RPC URLs are loopback stand-ins (two on the
 * right chain, one on another chain, one dead): search, pick, Check shows each URL's verdict, an ok
 * URL unticked stays out of the file, Save lands on the new network's page. A read token is offered
 * no Add; an existing id's 409 is shown. Nothing here leaves loopback.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chainEntry, deadUrl, startChainStandIn, writeRegistry, type ChainStandIn } from '../helpers/chain-stand-in.js';
import { consoleHarness, READER, WRITER, type TestToken } from '../helpers/console-harness.js';
import { removeDir, standardFiles } from '../helpers/fixtures.js';

describe('console/add-network: a network from the chain registry, each URL checked (headless Chromium, built netcfg)', function () {
  this.timeout(60_000);
  const h = consoleHarness();
  let dir = '';
  let standIns: ChainStandIn[] = [];
  let urls: { right: string; second: string; wrong: string; dead: string };
  let env: Record<string, string>;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-console-add-'));
    standIns = await Promise.all([
      startChainStandIn({ chainId: 777, head: 5000 }),
      startChainStandIn({ chainId: 777, head: 5000 }),
      startChainStandIn({ chainId: 1, head: 5000 }),
    ]);
    const [right, second, wrong] = standIns.map((s) => s.url) as [string, string, string];
    urls = { right, second, wrong, dead: await deadUrl() };
    const registry = writeRegistry(dir, [
      chainEntry(777, 'Stand In', 'StandIn', [urls.right, urls.second, urls.wrong, urls.dead]),
      chainEntry(4242, 'Other Chain', 'other', [urls.right]),
    ]);
    // The stand-ins are on loopback: private addresses must be allowed for them to be candidates at all.
    env = { CHAIN_REGISTRY_FILE: registry, RPC_BLOCK_PRIVATE_IPS: 'false' };
  });
  afterEach(async () => {
    await Promise.all(standIns.map((s) => s.close()));
    removeDir(dir);
  });

  /** Signs in with `token` when given; waits for the overview. */
  const openOverview = async (url: string, token?: TestToken): Promise<Page> => {
    const page = await h.open(url);
    if (token) {
      await page.getByLabel('API key').fill(token.token);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.getByRole('link', { name: 'evm:sepolia' }).waitFor();
    return page;
  };

  /** On the Add page: search `q`, pick the match named `name`, set the id when given, allow http, Check. */
  const check = async (page: Page, q: string, name: RegExp, id?: string): Promise<void> => {
    await page.getByLabel('Chain name or id').fill(q);
    await page.getByRole('list', { name: 'Registry matches' }).getByRole('button', { name }).click();
    if (id !== undefined) await page.getByLabel('Network id').fill(id);
    await page.getByLabel('Allow plain http:// URLs').check();
    await page.getByRole('button', { name: 'Check' }).click();
  };

  h.test(
    'search, pick, check (each verdict), untick one, save: the new page, the file with the URL chosen',
    async () => {
      const url = await h.start(standardFiles(), env);
      const page = await openOverview(url);
      await page.getByRole('link', { name: 'Add a network' }).click();
      await page.getByLabel('Chain name or id').fill('777');
      const matches = page.getByRole('list', { name: 'Registry matches' });
      await matches.getByRole('button').first().waitFor();
      expect(await matches.getByRole('button').allTextContents()).to.deep.equal(['Stand In (chain 777, StandIn)']);
      await check(page, 'stand', /^Stand In/);
      const table = page.getByRole('table', { name: 'Candidate RPC URLs' });
      await table.waitFor();
      expect(await page.getByLabel('Network id').inputValue(), 'the id from the short name').to.equal('evm:standin');
      const entry = await page.getByRole('definition').allTextContents();
      expect(entry).to.include('chainId 777 "Stand In" (shortName StandIn)');
      const verdicts = await table
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => `${r.children[1]?.textContent} ${r.children[2]?.textContent}`));
      expect(verdicts).to.have.members([
        `${urls.right} ok`,
        `${urls.second} ok`,
        `${urls.wrong} wrong_chain`,
        `${urls.dead} unreachable`,
      ]);
      const use = (u: string) => page.getByLabel(`Use ${u}`);
      expect(await use(urls.right).isChecked()).to.equal(true);
      expect(await use(urls.second).isChecked()).to.equal(true);
      expect(await use(urls.wrong).isDisabled(), 'a wrong-chain URL cannot be ticked').to.equal(true);
      expect(await use(urls.dead).isDisabled(), 'a dead URL cannot be ticked').to.equal(true);
      expect(existsSync(path.join(h.root(), 'evm', 'standin.yaml')), 'Check writes nothing').to.equal(false);
      await use(urls.second).uncheck();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: 'evm:standin', level: 1 }).waitFor();
      expect(await page.getByLabel('RPC URL 1').inputValue()).to.equal(urls.right);
      expect(await page.getByLabel('RPC URL 2').count(), 'the unticked URL is not written').to.equal(0);
      const text = h.read('evm/standin.yaml');
      expect(text).to.include(urls.right).and.include('chain_id: 777').and.include('# Added by netcfg add');
      for (const left of [urls.second, urls.wrong, urls.dead]) expect(text).to.not.include(left);
    },
  );

  h.test('an id that exists: the 409 is shown, nothing is written', async () => {
    const url = await h.start(standardFiles(), env);
    const before = h.read('evm/sepolia.yaml');
    h.allowErrors(409);
    const page = await openOverview(url);
    await page.getByRole('link', { name: 'Add a network' }).click();
    await check(page, 'stand', /^Stand In/, 'evm:sepolia');
    await page.getByRole('alert').filter({ hasText: 'evm:sepolia exists already' }).waitFor();
    expect(await page.getByRole('table', { name: 'Candidate RPC URLs' }).count()).to.equal(0);
    expect(h.read('evm/sepolia.yaml')).to.equal(before);
  });

  h.test("a bad field: the server's detail at its field", async () => {
    const url = await h.start(standardFiles(), env);
    h.allowErrors(400);
    const page = await openOverview(url);
    await page.getByRole('link', { name: 'Add a network' }).click();
    await page.getByLabel('Chain name or id').fill('other');
    await page.getByRole('button', { name: /^Other Chain/ }).click();
    await page.getByLabel('Required confirmations').fill('many');
    await page.getByRole('button', { name: 'Check' }).click();
    const problem = page.locator('#confirmations-problem');
    await problem.waitFor();
    expect(await page.getByLabel('Required confirmations').getAttribute('aria-invalid')).to.equal('true');
    expect(await problem.getAttribute('role')).to.equal('alert');
  });

  for (const { token, adds } of [
    { token: READER, adds: false },
    { token: WRITER, adds: true },
  ]) {
    h.test(`a ${token.role} token ${adds ? 'is' : 'is not'} offered Add`, async () => {
      const url = await h.start(standardFiles(), env, { tokens: [READER, WRITER] });
      h.allowErrors(401); // the console first asks without a key
      const page = await openOverview(url, token);
      expect(await page.getByRole('link', { name: 'Add a network' }).count()).to.equal(adds ? 1 : 0);
      if (!adds) {
        await page.goto(`${url}/#/add-network`);
        await page.getByText('This token may only read').waitFor();
        expect(await page.getByLabel('Chain name or id').count(), 'no search for a read token').to.equal(0);
      }
    });
  }
});
