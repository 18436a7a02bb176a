/**
 * The forge side of proposals, the same cases for GitHub, GitLab and Gitea against stand-ins that
 * answer as each does (test/helpers/stand-in-forge.ts): create, create again (the forge's "already
 * exists" resolved by finding the open one by its head and updating it), find and list by head.
 */
import { expect } from 'chai';
import { createOrUpdate, FORGE_KINDS, type Forge, type ForgeKind } from '../../src/forge/forge.js';
import { forgeFromConfig } from '../../src/forge/forge-from-config.js';
import {
  STAND_IN_REPO as REPO,
  STAND_IN_TOKEN as TOKEN,
  startStandInForge,
  type StandInForge,
} from '../helpers/stand-in-forge.js';

const DUPLICATE_STATUS: Record<ForgeKind, number> = { github: 422, gitlab: 409, gitea: 409 };
const request = { branch: 'netcfg/alice/evm-sepolia', base: 'main', title: 'evm:sepolia: rpc_urls', body: 'first' };

for (const kind of FORGE_KINDS) {
  describe(`forge: ${kind}`, () => {
    let standIn: StandInForge;
    let forge: Forge;
    beforeEach(async () => {
      standIn = await startStandInForge(kind, { token: TOKEN, repo: REPO[kind] });
      forge = forgeFromConfig({ kind, url: standIn.url, repo: REPO[kind], token: TOKEN }, { timeoutMs: 5000 });
    });
    afterEach(() => standIn.close());

    it('checks the token and the repository', async () => {
      await forge.check();
      expect(standIn.calls.repo).to.equal(1);
    });

    it('creates a pull request from the head branch into the base', async () => {
      const { proposal, created } = await createOrUpdate(forge, request);
      expect(created).to.equal(true);
      expect(proposal).to.deep.include({
        number: 1,
        branch: request.branch,
        base: 'main',
        title: request.title,
        state: 'open',
      });
      expect(proposal.url).to.match(/^https?:\/\/[^/]+\/(octo|ops)\/.+\/(pull|pulls|merge_requests)\/1$/);
      expect(proposal.created_at).to.match(/^2026-11-28T/);
      expect(standIn.pulls).to.have.length(1);
      expect(standIn.pulls[0]).to.deep.include({ head: request.branch, base: 'main', body: 'first' });
      expect(standIn.calls).to.deep.equal({ create: 1 });
    });

    it('a second proposal of the branch: the forge says one exists, so it is found by its head and updated', async () => {
      const first = await createOrUpdate(forge, request);
      const second = await createOrUpdate(forge, { ...request, title: 'evm:sepolia: rpc_urls, again', body: 'second' });
      expect(second.created).to.equal(false);
      expect(second.proposal).to.deep.include({
        number: first.proposal.number,
        title: 'evm:sepolia: rpc_urls, again',
        state: 'open',
      });
      expect(second.proposal.updated_at > first.proposal.updated_at).to.equal(true);
      expect(standIn.pulls).to.have.length(1);
      expect(standIn.pulls[0]?.body).to.equal('second');
      // The path really taken: a refused create, one look-up by head, one update.
      expect(standIn.calls).to.deep.equal({ create: 2, list: 1, update: 1 });
      expect(standIn.answers.filter((a) => a.call === 'create').map((a) => a.status)).to.deep.equal([
        201,
        DUPLICATE_STATUS[kind],
      ]);
    });

    it("another actor's branch is another pull request", async () => {
      await createOrUpdate(forge, request);
      const bob = await createOrUpdate(forge, { ...request, branch: 'netcfg/bob/evm-sepolia' });
      expect(bob).to.deep.include({ created: true });
      expect(bob.proposal.number).to.equal(2);
    });

    it("finds the open pull request by its head, not a fork's of the same name nor a closed one", async () => {
      standIn.seed({ head: request.branch, fork: true });
      standIn.seed({ head: request.branch, state: 'closed' });
      expect(await forge.findByHead(request.branch)).to.equal(null);
      const own = standIn.seed({ head: request.branch, title: 'mine' });
      expect(await forge.findByHead(request.branch)).to.deep.include({
        number: own.number,
        branch: request.branch,
        title: 'mine',
        state: 'open',
      });
    });

    it('lists the open pull requests whose head starts with a prefix, across pages', async () => {
      for (let i = 0; i < 105; i++) standIn.seed({ head: `netcfg/alice/evm-n${i}` });
      standIn.seed({ head: 'netcfg/bob/evm-sepolia' });
      standIn.seed({ head: 'netcfg/alice/closed', state: 'closed' });
      standIn.seed({ head: 'netcfg/alice/merged', state: 'merged' });
      standIn.seed({ head: 'feature/x' });
      standIn.seed({ head: 'netcfg/eve/evm-sepolia', fork: true });
      const all = await forge.listOpen('netcfg/');
      expect(all).to.have.length(106);
      expect(all.every((p) => p.state === 'open' && p.branch.startsWith('netcfg/'))).to.equal(true);
      expect(all.map((p) => p.branch))
        .to.include('netcfg/bob/evm-sepolia')
        .and.not.include('netcfg/eve/evm-sepolia');
      const bob = await forge.listOpen('netcfg/bob/');
      expect(bob.map((p) => [p.number, p.branch])).to.deep.equal([[106, 'netcfg/bob/evm-sepolia']]);
      expect(await forge.listOpen('nothing/')).to.deep.equal([]);
    });
  });
}
