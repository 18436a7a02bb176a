/**
 * Gitea's (and Forgejo's, which shares its API) pull requests, by a thin client of the few
 * endpoints used (`Authorization: token <t>`): `GET /repos/{owner}/{repo}`, `GET|POST
 * /repos/{owner}/{repo}/pulls` (listed with `state=open`, 50 a page, its default cap) and `PATCH
 * /repos/{owner}/{repo}/pulls/{index}` (answered 201). A second pull request from the same head
 * to the same base is a 409 `{"message":"pull request already exists for these targets [id: ...,
 * issue_id: N, ...]","url":...}` (models/issues/pull.go, ErrPullRequestAlreadyExists).
 */
import { badAnswer, wordsOf } from './forge-errors.js';
import type { ForgeLimits, ForgePlace } from './forge-fetch.js';
import { field, restClient } from './forge-rest.js';
import { ProposalExists, type Forge, type ForgeSettings, type Proposal, type ProposalRequest } from './forge.js';

const PER_PAGE = 50;
/** More open pull requests than this are not netcfg's to list. */
const MAX_PAGES = 20;

export function giteaForge(settings: ForgeSettings, limits: ForgeLimits): Forge {
  const place: ForgePlace = { where: `Gitea (${settings.url}, ${settings.repo})`, token: settings.token };
  const call = restClient({ place, apiRoot: settings.url, auth: { authorization: `token ${settings.token}` }, limits });
  const [owner = '', name = ''] = settings.repo.split('/');
  const repo = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;

  const proposalOf = (pull: unknown, what: string): Proposal => {
    const number = field<number>(pull, 'number', 'number');
    const url = field<string>(pull, 'html_url', 'string');
    const branch = field<string>(field(pull, 'head', 'object'), 'ref', 'string');
    const base = field<string>(field(pull, 'base', 'object'), 'ref', 'string');
    const state = field<string>(pull, 'state', 'string');
    if (
      number === undefined ||
      url === undefined ||
      branch === undefined ||
      base === undefined ||
      state === undefined
    ) {
      throw badAnswer(place, what, 'a pull request without number, html_url, head.ref, base.ref or state');
    }
    return {
      number,
      url,
      branch,
      base,
      title: field<string>(pull, 'title', 'string') ?? '',
      state: state === 'open' ? 'open' : field(pull, 'merged', 'boolean') === true ? 'merged' : 'closed',
      created_at: field<string>(pull, 'created_at', 'string') ?? '',
      updated_at: field<string>(pull, 'updated_at', 'string') ?? '',
    };
  };
  /** Pull requests from this repository's own branches: a fork's may carry the same branch name. */
  const own = (pull: unknown): boolean => {
    const head = field(field(pull, 'head', 'object'), 'repo_id', 'number');
    return head !== undefined && head === field(field(pull, 'base', 'object'), 'repo_id', 'number');
  };
  const listOwn = async (): Promise<Proposal[]> => {
    const all: Proposal[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await call('GET', `${repo}/pulls?state=open&limit=${PER_PAGE}&page=${page}`);
      if (!Array.isArray(answer)) throw badAnswer(place, 'its pull requests', 'something that is not a list');
      all.push(...answer.filter(own).map((pull) => proposalOf(pull, 'its pull requests')));
      if (answer.length < PER_PAGE) break;
    }
    return all;
  };

  return {
    kind: 'gitea',
    async check() {
      await call('GET', repo);
    },
    async findByHead(branch) {
      return (await listOwn()).find((p) => p.branch === branch) ?? null;
    },
    async create(request: ProposalRequest) {
      const body = { head: request.branch, base: request.base, title: request.title, body: request.body };
      const pull = await call('POST', `${repo}/pulls`, body, (answer) =>
        answer.status === 409 && /already exists/i.test(wordsOf(answer)) ? new ProposalExists(request.branch) : null,
      );
      return proposalOf(pull, 'the new pull request');
    },
    async update(number, change) {
      return proposalOf(
        await call('PATCH', `${repo}/pulls/${number}`, { title: change.title, body: change.body }),
        `pull request #${number}`,
      );
    },
    async listOpen(headPrefix) {
      return (await listOwn()).filter((p) => p.branch.startsWith(headPrefix));
    },
  };
}
