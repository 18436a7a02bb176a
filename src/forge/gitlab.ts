/**
 * GitLab's merge requests, by a thin client of the few endpoints used (REST v4, `PRIVATE-TOKEN`):
 * `GET /projects/:id`, `GET|POST /projects/:id/merge_requests` (`source_branch`, `target_branch`,
 * `title`, `description`; listed with `state=opened`), `PUT /projects/:id/merge_requests/:iid`.
 * The project's id is its path, URL-encoded (`group%2Fsub%2Fnetworks`). A second merge request
 * from the same source branch is a 409 `{"message":["Another open merge request already exists
 * for this source branch: !N"]}` (GitLab before 13 answered 422 "This merge request already exists").
 */
import { badAnswer, wordsOf } from './forge-errors.js';
import type { ForgeLimits, ForgePlace } from './forge-fetch.js';
import { field, restClient } from './forge-rest.js';
import { ProposalExists, type Forge, type ForgeSettings, type Proposal, type ProposalRequest } from './forge.js';

const PER_PAGE = 100;
/** More open merge requests than this are not netcfg's to list. */
const MAX_PAGES = 10;

export function gitlabForge(settings: ForgeSettings, limits: ForgeLimits): Forge {
  const place: ForgePlace = { where: `GitLab (${settings.url}, ${settings.repo})`, token: settings.token };
  const call = restClient({ place, apiRoot: settings.url, auth: { 'private-token': settings.token }, limits });
  const project = `/projects/${encodeURIComponent(settings.repo)}`;

  const proposalOf = (mr: unknown, what: string): Proposal => {
    const number = field<number>(mr, 'iid', 'number');
    const url = field<string>(mr, 'web_url', 'string');
    const branch = field<string>(mr, 'source_branch', 'string');
    const base = field<string>(mr, 'target_branch', 'string');
    const state = field<string>(mr, 'state', 'string');
    if (
      number === undefined ||
      url === undefined ||
      branch === undefined ||
      base === undefined ||
      state === undefined
    ) {
      throw badAnswer(place, what, 'a merge request without iid, web_url, source_branch, target_branch or state');
    }
    return {
      number,
      url,
      branch,
      base,
      title: field<string>(mr, 'title', 'string') ?? '',
      state: state === 'merged' ? 'merged' : state === 'closed' ? 'closed' : 'open', // `locked` is open, briefly
      created_at: field<string>(mr, 'created_at', 'string') ?? '',
      updated_at: field<string>(mr, 'updated_at', 'string') ?? '',
    };
  };
  /** Merge requests from this project's own branches: one from a fork may carry the same branch name. */
  const own = (mr: unknown): boolean =>
    field(mr, 'source_project_id', 'number') === field(mr, 'target_project_id', 'number');
  const list = async (query: string, what: string): Promise<unknown[]> => {
    const all: unknown[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await call(
        'GET',
        `${project}/merge_requests?state=opened&per_page=${PER_PAGE}&page=${page}${query}`,
      );
      if (!Array.isArray(answer)) throw badAnswer(place, what, 'something that is not a list');
      all.push(...answer);
      if (answer.length < PER_PAGE) break;
    }
    return all;
  };

  return {
    kind: 'gitlab',
    async check() {
      await call('GET', project);
    },
    async findByHead(branch) {
      const found = (await list(`&source_branch=${encodeURIComponent(branch)}`, 'its merge requests')).filter(own);
      const mr = found.find((m) => field(m, 'source_branch', 'string') === branch);
      return mr === undefined ? null : proposalOf(mr, 'its merge requests');
    },
    async create(request: ProposalRequest) {
      const body = {
        source_branch: request.branch,
        target_branch: request.base,
        title: request.title,
        description: request.body,
        remove_source_branch: true,
      };
      const mr = await call('POST', `${project}/merge_requests`, body, (answer) =>
        (answer.status === 409 || answer.status === 422) && /already exists/i.test(wordsOf(answer))
          ? new ProposalExists(request.branch)
          : null,
      );
      return proposalOf(mr, 'the new merge request');
    },
    async update(number, change) {
      const mr = await call('PUT', `${project}/merge_requests/${number}`, {
        title: change.title,
        description: change.body,
      });
      return proposalOf(mr, `merge request !${number}`);
    },
    async listOpen(headPrefix) {
      const open = (await list('', 'its merge requests')).filter(own);
      return open.map((mr) => proposalOf(mr, 'its merge requests')).filter((p) => p.branch.startsWith(headPrefix));
    },
  };
}
