/**
 * The bodies the stand-in forges answer, shaped as each forge answers them: GitHub's full
 * `pull-request` and `pull-request-simple` (checked against GitHub's OpenAPI description in
 * test/forge/github-shapes.test.ts), GitLab's merge request, Gitea's pull request, and each
 * forge's error bodies.
 */

export interface StoredPull {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  state: 'open' | 'closed' | 'merged';
  /** Opened from a fork whose branch has the same name (not this repository's own). */
  fork: boolean;
  created_at: string;
  updated_at: string;
}

const T0 = '2026-11-28T08:00:00Z';

function githubUser(api: string, login: string, id: number): Record<string, unknown> {
  const u = `${api}/users/${login}`;
  return {
    login,
    id,
    node_id: `MDQ6VXNlcj${id}`,
    avatar_url: `https://avatars.example/u/${id}`,
    gravatar_id: '',
    url: u,
    html_url: `https://github.example/${login}`,
    followers_url: `${u}/followers`,
    following_url: `${u}/following{/other_user}`,
    gists_url: `${u}/gists{/gist_id}`,
    starred_url: `${u}/starred{/owner}{/repo}`,
    subscriptions_url: `${u}/subscriptions`,
    organizations_url: `${u}/orgs`,
    repos_url: `${u}/repos`,
    events_url: `${u}/events{/privacy}`,
    received_events_url: `${u}/received_events`,
    type: 'User',
    site_admin: false,
  };
}

/** GitHub's `repository`: every field its schema requires. */
export function githubRepo(api: string, fullName: string, id = 1296269): Record<string, unknown> {
  const [owner = '', name = ''] = fullName.split('/');
  const u = `${api}/repos/${fullName}`;
  const urls = [
    'archive_url',
    'assignees_url',
    'blobs_url',
    'branches_url',
    'collaborators_url',
    'comments_url',
    'commits_url',
    'compare_url',
    'contents_url',
    'contributors_url',
    'deployments_url',
    'downloads_url',
    'events_url',
    'forks_url',
    'git_commits_url',
    'git_refs_url',
    'git_tags_url',
    'hooks_url',
    'issue_comment_url',
    'issue_events_url',
    'issues_url',
    'keys_url',
    'labels_url',
    'languages_url',
    'merges_url',
    'milestones_url',
    'notifications_url',
    'pulls_url',
    'releases_url',
    'stargazers_url',
    'statuses_url',
    'subscribers_url',
    'subscription_url',
    'tags_url',
    'teams_url',
    'trees_url',
  ];
  return {
    ...Object.fromEntries(urls.map((key) => [key, `${u}/${key.replace(/_url$/, '')}`])),
    id,
    node_id: `MDEwOlJlcG9zaXRvcnk${id}`,
    name,
    full_name: fullName,
    owner: githubUser(api, owner, 1),
    private: true,
    html_url: `https://github.example/${fullName}`,
    description: null,
    fork: false,
    url: u,
    clone_url: `https://github.example/${fullName}.git`,
    git_url: `git://github.example/${fullName}.git`,
    ssh_url: `git@github.example:${fullName}.git`,
    svn_url: `https://github.example/${fullName}`,
    mirror_url: null,
    homepage: null,
    language: null,
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    size: 10,
    default_branch: 'main',
    open_issues: 0,
    open_issues_count: 0,
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: false,
    archived: false,
    disabled: false,
    license: null,
    pushed_at: T0,
    created_at: T0,
    updated_at: T0,
  };
}

/** GitHub's `pull-request` (full: `simple` false) or `pull-request-simple` (as pulls.list answers). */
export function githubPull(api: string, fullName: string, pull: StoredPull, simple: boolean): Record<string, unknown> {
  const owner = fullName.split('/')[0] ?? '';
  const u = `${api}/repos/${fullName}/pulls/${pull.number}`;
  const html = `https://github.example/${fullName}/pull/${pull.number}`;
  const headRepo = pull.fork
    ? githubRepo(api, `someone-else/${fullName.split('/')[1]}`, 99)
    : githubRepo(api, fullName);
  const link = (href: string): { href: string } => ({ href });
  const merged = pull.state === 'merged';
  const body: Record<string, unknown> = {
    url: u,
    id: 1000 + pull.number,
    node_id: `PR_${pull.number}`,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/repos/${fullName}/issues/${pull.number}`,
    commits_url: `${u}/commits`,
    review_comments_url: `${u}/comments`,
    review_comment_url: `${api}/repos/${fullName}/pulls/comments{/number}`,
    comments_url: `${api}/repos/${fullName}/issues/${pull.number}/comments`,
    statuses_url: `${api}/repos/${fullName}/statuses/0123456789abcdef0123456789abcdef01234567`,
    number: pull.number,
    state: pull.state === 'open' ? 'open' : 'closed',
    locked: false,
    title: pull.title,
    user: githubUser(api, 'netcfg-bot', 7),
    body: pull.body,
    labels: [],
    milestone: null,
    created_at: pull.created_at,
    updated_at: pull.updated_at,
    closed_at: pull.state === 'open' ? null : pull.updated_at,
    merged_at: merged ? pull.updated_at : null,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: {
      label: `${pull.fork ? 'someone-else' : owner}:${pull.head}`,
      ref: pull.head,
      sha: 'a'.repeat(40),
      user: githubUser(api, owner, 1),
      repo: headRepo,
    },
    base: {
      label: `${owner}:${pull.base}`,
      ref: pull.base,
      sha: 'b'.repeat(40),
      user: githubUser(api, owner, 1),
      repo: githubRepo(api, fullName),
    },
    _links: {
      self: link(u),
      html: link(html),
      issue: link(`${api}/repos/${fullName}/issues/${pull.number}`),
      comments: link(`${api}/repos/${fullName}/issues/${pull.number}/comments`),
      review_comments: link(`${u}/comments`),
      review_comment: link(`${api}/repos/${fullName}/pulls/comments{/number}`),
      commits: link(`${u}/commits`),
      statuses: link(`${api}/repos/${fullName}/statuses/${'a'.repeat(40)}`),
    },
    author_association: 'MEMBER',
    auto_merge: null,
    draft: false,
  };
  if (simple) return body;
  return {
    ...body,
    merged,
    mergeable: null,
    rebaseable: null,
    mergeable_state: 'unknown',
    merged_by: null,
    comments: 0,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: 1,
    additions: 1,
    deletions: 1,
    changed_files: 1,
  };
}

/** GitLab's merge request (the fields of its API's answer that matter, and a few more). */
export function gitlabMergeRequest(web: string, projectPath: string, pull: StoredPull): Record<string, unknown> {
  return {
    id: 5000 + pull.number,
    iid: pull.number,
    project_id: 42,
    title: pull.title,
    description: pull.body,
    state: pull.state === 'open' ? 'opened' : pull.state,
    created_at: pull.created_at,
    updated_at: pull.updated_at,
    target_branch: pull.base,
    source_branch: pull.head,
    source_project_id: pull.fork ? 77 : 42,
    target_project_id: 42,
    author: { id: 7, username: 'netcfg-bot', name: 'netcfg' },
    draft: false,
    merge_status: 'can_be_merged',
    detailed_merge_status: 'mergeable',
    sha: 'a'.repeat(40),
    references: { short: `!${pull.number}`, relative: `!${pull.number}`, full: `${projectPath}!${pull.number}` },
    web_url: `${web}/${projectPath}/-/merge_requests/${pull.number}`,
    force_remove_source_branch: true,
  };
}

/** Gitea's (Forgejo's) pull request. */
export function giteaPull(web: string, fullName: string, pull: StoredPull): Record<string, unknown> {
  const repoOf = (id: number, name: string): Record<string, unknown> => {
    const [login, short] = name.split('/');
    return { id, name: short, full_name: name, owner: { id: 1, login } };
  };
  const headName = pull.fork ? `someone-else/${fullName.split('/')[1]}` : fullName;
  return {
    id: 3000 + pull.number,
    url: `${web}/${fullName}/pulls/${pull.number}`,
    number: pull.number,
    user: { id: 7, login: 'netcfg-bot' },
    title: pull.title,
    body: pull.body,
    state: pull.state === 'open' ? 'open' : 'closed',
    merged: pull.state === 'merged',
    mergeable: true,
    html_url: `${web}/${fullName}/pulls/${pull.number}`,
    diff_url: `${web}/${fullName}/pulls/${pull.number}.diff`,
    head: {
      label: pull.head,
      ref: pull.head,
      sha: 'a'.repeat(40),
      repo_id: pull.fork ? 9 : 1,
      repo: repoOf(pull.fork ? 9 : 1, headName),
    },
    base: { label: pull.base, ref: pull.base, sha: 'b'.repeat(40), repo_id: 1, repo: repoOf(1, fullName) },
    created_at: pull.created_at,
    updated_at: pull.updated_at,
    closed_at: null,
    merged_at: null,
  };
}
