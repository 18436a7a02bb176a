/**
 * GitHub's (and GitHub Enterprise Server's) pull requests, through its well-kept client
 * `@octokit/rest`: `repos.get`, `pulls.list` (`head: owner:branch`, `state: open`), `pulls.create`
 * and `pulls.update`. Octokit's own fetch is netcfg's forgeFetch (the deadline, the cap, no redirect)
 * and its log is silent: its debug line holds the request's headers. A second pull request from the
 * same head is a 422 "Validation Failed" whose `errors` say "A pull request already exists for
 * owner:branch.".
 */
import { Octokit } from '@octokit/rest';
import { NetcfgError } from '../errors.js';
import { answerError, badAnswer, wordsOf } from './forge-errors.js';
import { forgeFetch, type Answer, type ForgeLimits, type ForgePlace } from './forge-fetch.js';
import { ProposalExists, type Forge, type ForgeSettings, type Proposal, type ProposalRequest } from './forge.js';

const PER_PAGE = 100;
/** More open pull requests than this are not netcfg's to list. */
const MAX_PAGES = 10;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

interface GitHubPull {
  number: number;
  html_url: string;
  title: string;
  state: string;
  merged_at?: string | null;
  created_at: string;
  updated_at: string;
  head: { ref: string; repo?: { full_name?: string } | null };
  base: { ref: string };
}

export function githubForge(settings: ForgeSettings, limits: ForgeLimits): Forge {
  const place: ForgePlace = { where: `GitHub (${settings.url}, ${settings.repo})`, token: settings.token };
  const [owner = '', repo = ''] = settings.repo.split('/');
  const fetchThrough = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const answer = await forgeFetch(place, String(url), init ?? {}, limits);
    const empty = answer.status === 204 || answer.status === 205 || answer.status === 304;
    return new Response(empty ? null : answer.text, { status: answer.status, headers: answer.headers });
  };
  const octokit = new Octokit({
    auth: settings.token,
    baseUrl: settings.url,
    userAgent: 'netcfg',
    log: silent,
    request: { fetch: fetchThrough },
  });

  /** Octokit's errors as netcfg's: forgeFetch's own pass through, a failing answer goes through the one mapping. */
  const failed = (what: string, err: unknown, onFailure?: (answer: Answer) => Error | null): Error => {
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof NetcfgError) return cause;
    const { status, response } = err as {
      status?: number;
      response?: { headers?: Record<string, string>; data?: unknown };
    };
    if (typeof status !== 'number' || response === undefined)
      return new NetcfgError('FORGE_UNAVAILABLE', `${place.where} failed on ${what}; retry later.`);
    const data = response.data;
    const answer: Answer = {
      status,
      headers: new Headers(response.headers ?? {}),
      text: typeof data === 'string' ? data : JSON.stringify(data ?? ''),
    };
    return onFailure?.(answer) ?? answerError(place, what, answer);
  };
  const proposalOf = (pull: GitHubPull, what: string): Proposal => {
    if (
      typeof pull?.number !== 'number' ||
      typeof pull.html_url !== 'string' ||
      typeof pull.head?.ref !== 'string' ||
      typeof pull.base?.ref !== 'string'
    ) {
      throw badAnswer(place, what, 'a pull request without number, html_url, head.ref or base.ref');
    }
    const state = pull.state === 'open' ? 'open' : pull.merged_at ? 'merged' : 'closed';
    const { number, html_url: url, title, created_at, updated_at } = pull;
    return { number, url, branch: pull.head.ref, base: pull.base.ref, title, state, created_at, updated_at };
  };
  const list = async (head: string | undefined): Promise<GitHubPull[]> => {
    const all: GitHubPull[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { data } = await octokit.pulls
        .list({ owner, repo, state: 'open', per_page: PER_PAGE, page, ...(head ? { head } : {}) })
        .catch((err: unknown) => {
          throw failed('GET /pulls', err);
        });
      if (!Array.isArray(data)) throw badAnswer(place, 'GET /pulls', 'something that is not a list');
      all.push(...(data as GitHubPull[]));
      if (data.length < PER_PAGE) break;
    }
    return all;
  };
  /** This repository's own branches: a fork's pull request may carry the same branch name. */
  const own = (pull: GitHubPull): boolean => pull.head?.repo?.full_name?.toLowerCase() === settings.repo.toLowerCase();

  return {
    kind: 'github',
    async check() {
      await octokit.repos.get({ owner, repo }).catch((err: unknown) => {
        throw failed('GET /repos', err);
      });
    },
    async findByHead(branch) {
      const pull = (await list(`${owner}:${branch}`)).find((p) => p.head?.ref === branch);
      return pull === undefined ? null : proposalOf(pull, 'GET /pulls');
    },
    async create(request: ProposalRequest) {
      const exists = (answer: Answer): Error | null =>
        answer.status === 422 && /already exists/i.test(wordsOf(answer)) ? new ProposalExists(request.branch) : null;
      const { head, base, title, body } = {
        head: request.branch,
        base: request.base,
        title: request.title,
        body: request.body,
      };
      const { data } = await octokit.pulls.create({ owner, repo, head, base, title, body }).catch((err: unknown) => {
        throw failed('POST /pulls', err, exists);
      });
      return proposalOf(data as GitHubPull, 'POST /pulls');
    },
    async update(number, change) {
      const { data } = await octokit.pulls
        .update({ owner, repo, pull_number: number, title: change.title, body: change.body })
        .catch((err: unknown) => {
          throw failed(`PATCH /pulls/${number}`, err);
        });
      return proposalOf(data as GitHubPull, `PATCH /pulls/${number}`);
    },
    async listOpen(headPrefix) {
      return (await list(undefined))
        .filter((p) => own(p) && p.head.ref.startsWith(headPrefix))
        .map((p) => proposalOf(p, 'GET /pulls'));
    },
  };
}
