/**
 * A network's page and its history end to end (the built netcfg on loopback, headless Chromium):
 * edit and save into the YAML file, problems at their fields before and after sending, the 412 of
 * a concurrent change, a revert from history, and what each token's role is offered (a table: a
 * read token sees no Save nor Revert) with each history entry naming who made it. No test may
 * leave a console error behind, but for one it provoked.
 */
import { expect } from 'chai';
import { waitForValue } from '../helpers/browser.js';
import { consoleHarness, READER, WRITER } from '../helpers/console-harness.js';
import { networkYaml, standardFiles } from '../helpers/fixtures.js';
import { git } from '../helpers/git-repo.js';

describe('console/network-page: a network, its RPC URLs and its history (headless Chromium, built netcfg on loopback)', function () {
  this.timeout(60_000);
  const h = consoleHarness();

  h.test('edit and save: the YAML file changes and keeps its comments; Enter in a field saves', async () => {
    const url = await h.start(standardFiles());
    const page = await h.open(url);
    await page.getByRole('link', { name: 'evm:sepolia' }).click();
    expect(await page.getByLabel('RPC URL 1').inputValue()).to.equal('https://rpc.example.com');
    expect(await page.getByLabel('Weight 2').inputValue()).to.equal('30');
    await page.getByLabel('RPC URL 1').fill('https://new.example.com');
    const pending = await page.getByRole('list', { name: 'Changes to save' }).textContent();
    expect(pending, 'the diff before Save')
      .to.include('removed: https://rpc.example.com (weight 100)')
      .and.include('added: https://new.example.com (weight 100)');
    await page.getByLabel('Weight 2').fill('0');
    await page.getByRole('button', { name: 'Add URL' }).click();
    // The page moves focus in an effect, after the click's render: wait for it (with a deadline), then check.
    await page
      .waitForFunction("document.activeElement?.id === 'url-2'", undefined, { timeout: 5000 })
      .catch(() => undefined);
    expect(await page.evaluate('document.activeElement.id'), 'focus moves to the new field').to.equal('url-2');
    await page.getByLabel('RPC URL 3').fill('https://third.example.com');
    await page.getByLabel('RPC URL 3').press('Enter');
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const text = h.read('evm/sepolia.yaml');
    expect(text).to.include('# test network').and.include('chain_id: 11155111 # sepolia');
    expect(text)
      .to.include('https://new.example.com')
      .and.include('weight: 0')
      .and.include('https://third.example.com');
    expect(text).to.not.include('https://rpc.example.com');
    await page.getByRole('button', { name: 'Remove URL 3' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(h.read('evm/sepolia.yaml')).to.not.include('third.example.com');
  });

  h.test(
    'an invalid URL is refused at its field while typing and on Save; nothing is sent and the file is unchanged',
    async () => {
      const url = await h.start(standardFiles());
      const before = h.read('evm/sepolia.yaml');
      const page = await h.open(`${url}/#/networks/evm:sepolia`);
      await page.getByLabel('RPC URL 1').fill('ftp://rpc.example.com');
      const problem = page
        .getByRole('alert')
        .filter({ hasText: 'RPC URL 1 must be an absolute http:// or https:// URL' });
      await problem.waitFor();
      expect(await page.getByLabel('RPC URL 1').getAttribute('aria-invalid')).to.equal('true');
      expect(await page.getByLabel('RPC URL 1').getAttribute('aria-describedby')).to.equal(
        await problem.getAttribute('id'),
      );
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('alert').filter({ hasText: 'Not saved: fix the fields marked below.' }).waitFor();
      expect(h.read('evm/sepolia.yaml')).to.equal(before);
      expect(
        h.server().logs.filter((l) => l.method === 'PATCH'),
        'no PATCH reached the server',
      ).to.deep.equal([]);
    },
  );

  h.test("the server's details land at their field: a repeated URL", async () => {
    const url = await h.start(standardFiles());
    const before = h.read('evm/sepolia.yaml');
    h.allowErrors(400);
    const page = await h.open(`${url}/#/networks/evm:sepolia`);
    await page.getByLabel('RPC URL 2').fill('https://rpc.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'RPC URL 2 repeats RPC URL 1' }).waitFor();
    expect(await page.getByLabel('RPC URL 2').getAttribute('aria-invalid')).to.equal('true');
    expect(h.read('evm/sepolia.yaml')).to.equal(before);
  });

  h.test(
    'a change on disk while editing: the edit is kept and the change announced; Save is a 412 that offers Reload',
    async () => {
      const url = await h.start(standardFiles());
      h.allowErrors(412);
      const page = await h.open(`${url}/#/networks/evm:sepolia`);
      await page.getByLabel('RPC URL 1').fill('https://mine.example.com');
      h.write('evm/sepolia.yaml', networkYaml({ rpc_urls: ['https://theirs.example.com'] }));
      await page.getByRole('alert').filter({ hasText: 'changed on the server since you opened it' }).waitFor();
      expect(await page.getByLabel('RPC URL 1').inputValue(), 'the unsaved edit is not overwritten').to.equal(
        'https://mine.example.com',
      );
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'Not saved: this network changed since you opened it' })
        .waitFor();
      expect(h.read('evm/sepolia.yaml')).to.include('https://theirs.example.com').and.not.include('mine.example.com');
      await page.getByRole('button', { name: 'Reload' }).click();
      await waitForValue(page, '#url-0', 'https://theirs.example.com');
    },
  );

  h.test(
    'history: each commit with who made it and the change it made to rpc_urls; Revert shows the diff, then restores through PATCH',
    async () => {
      const url = await h.start(standardFiles(), { GIT_COMMIT: 'true' }, { repo: true });
      const page = await h.open(`${url}/#/networks/evm:sepolia`);
      await page.getByLabel('RPC URL 1').fill('https://edited.example.com');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.getByRole('link', { name: 'History' }).click();
      const change = page.getByRole('list', { name: /^Change made by / }).first();
      await change.waitFor();
      expect(await change.textContent())
        .to.include('removed: https://rpc.example.com (weight 100)')
        .and.include('added: https://edited.example.com (weight 100)');
      const who = page.locator('.commits > li .meta');
      expect(await who.first().textContent(), 'a change made through netcfg names its actor').to.match(
        /^token:anonymous, /,
      );
      expect(await who.last().textContent(), 'a commit made outside netcfg names its author').to.match(
        /^seed <seed@example\.com>, /,
      );
      const seed = git(h.root(), 'rev-list', '--max-parents=0', 'HEAD').trim().slice(0, 7);
      await page.getByRole('button', { name: `Revert to ${seed}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await page
        .waitForFunction("document.activeElement?.id === 'revert-title'", undefined, { timeout: 5000 })
        .catch(() => undefined);
      expect(await page.evaluate('document.activeElement.id'), 'focus moves to the dialog').to.equal('revert-title');
      expect(await dialog.getByRole('list').textContent())
        .to.include('removed: https://edited.example.com')
        .and.include('added: https://rpc.example.com');
      expect(h.read('evm/sepolia.yaml'), 'nothing changes before Apply').to.include('https://edited.example.com');
      await dialog.getByRole('button', { name: 'Apply revert' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `to their version of ${seed}` })
        .waitFor();
      const text = h.read('evm/sepolia.yaml');
      expect(text).to.include('https://rpc.example.com').and.include('# sepolia');
      expect(text).to.not.include('edited.example.com');
      await page.locator('.commits > li').nth(2).waitFor();
      expect(await page.locator('.commits > li').count()).to.equal(3);
      await page.getByRole('link', { name: 'Networks' }).click();
      expect(await page.getByRole('region', { name: 'Git' }).textContent()).to.match(/^Git: healthy/);
    },
  );

  for (const { token, writes } of [
    { token: READER, writes: false },
    { token: WRITER, writes: true },
  ]) {
    h.test(
      `a ${token.role} token: signed in as ${token.name}, Save and Revert ${writes ? 'offered' : 'hidden'}; history names who made each change`,
      async () => {
        const url = await h.start(standardFiles(), { GIT_COMMIT: 'true' }, { repo: true, tokens: [READER, WRITER] });
        // A change by ops-alice's token, beside the seed commit made outside netcfg.
        const patched = await fetch(`${url}/api/v1/networks/evm:sepolia`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${WRITER.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ rpc_urls: ['https://alice.example.com'] }),
        });
        expect(patched.status).to.equal(200);
        h.allowErrors(401); // the console first asks without a key
        const page = await h.open(`${url}/#/networks/evm:sepolia`);
        await page.getByLabel('API key').fill(token.token);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page
          .getByRole('banner')
          .getByText(`Signed in as ${token.name} (${token.role})`, { exact: true })
          .waitFor();
        await page.getByLabel('RPC URL 1').waitFor();
        const readOnly = page.getByText('This token may only read');
        expect(await page.getByRole('button', { name: 'Save' }).count(), 'Save').to.equal(writes ? 1 : 0);
        expect(await readOnly.count(), 'the read-only line').to.equal(writes ? 0 : 1);
        expect(await page.getByLabel('RPC URL 1').isEditable(), 'the fields').to.equal(writes);
        await page.getByRole('link', { name: 'History' }).click();
        const entries = page.locator('.commits > li');
        await entries.nth(1).waitFor();
        expect(await entries.first().locator('.meta').textContent()).to.match(/^token:ops-alice, /);
        expect(
          await entries.nth(1).locator('.meta').textContent(),
          'a commit made outside netcfg: its author',
        ).to.match(/^seed <seed@example\.com>, /);
        expect(await page.getByRole('button', { name: /^Revert to / }).count(), 'Revert').to.equal(writes ? 2 : 0);
        expect(await readOnly.count(), 'the read-only line').to.equal(writes ? 0 : 1);
      },
    );
  }
});
