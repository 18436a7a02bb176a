/**
 * Stand-ins for the three forges netcfg proposes on: a real HTTP server on loopback that answers
 * as the forge does, with its status codes and error bodies. GitHub (REST, api.github.com):
 * `GET /repos/{o}/{r}`, `GET|POST /repos/{o}/{r}/pulls`, `PATCH .../pulls/{n}`; a duplicate is 422
 * "Validation Failed" + "A pull request already exists for owner:branch.", a bad token 401 "Bad
 * credentials", the primary rate limit 403 with `x-ratelimit-remaining: 0`. GitLab (`/api/v4`):
 * `GET /projects/:id`, `GET|POST /projects/:id/merge_requests`, `PUT .../merge_requests/:iid`; a
 * duplicate is 409 `{"message":["Another open merge request already exists for this source
 * branch: !N"]}`, a bad token 401 `{"message":"401 Unauthorized"}`, its limit 429 "Retry later"
 * with Retry-After. Gitea (`/api/v1`): `GET /repos/{o}/{r}`, `GET|POST .../pulls`, `PATCH
 * .../pulls/{index}` (201); a duplicate is 409 "pull request already exists for these targets [...]".
 * Failure modes are switched on the object; every call is counted.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ForgeKind } from '../../src/forge/forge.js';
import { githubPull, githubRepo, giteaPull, gitlabMergeRequest, type StoredPull } from './stand-in-forge-shapes.js';

export type ForgeMode =
  | 'normal'
  | 'slow'
  | 'unauthorized'
  | 'forbidden'
  | 'rate-limited'
  | 'too-many'
  | 'server-error'
  | 'huge'
  | 'redirect'
  | 'echo-token';

export interface StandInForge {
  kind: ForgeKind;
  /** The API root GIT_FORGE_URL names. */
  url: string;
  token: string;
  repo: string;
  pulls: StoredPull[];
  /** Calls taken, by name: `repo`, `list`, `create`, `update` (counted in every mode). */
  calls: Record<string, number>;
  /** Every answer given: the call's name, status and parsed body (for shape checks). */
  answers: Array<{ call: string; status: number; body: unknown }>;
  mode: ForgeMode;
  /** Adds a pull request as if opened on the forge. */
  seed(pull: Partial<StoredPull> & { head: string }): StoredPull;
  /** Stops listening (the port is closed: connections are refused) and starts again on the same port. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** A token and repositories for tests: the token looks like one, so a leak of it is seen. */
export const STAND_IN_TOKEN = 'ghp_Zq9StandInForgeToken0123456789';
export const STAND_IN_REPO: Record<ForgeKind, string> = {
  github: 'octo/networks',
  gitlab: 'ops/chains/networks',
  gitea: 'octo/networks',
};

const GITHUB_DOCS = 'https://docs.github.com/rest/pulls/pulls';
const PREFIX: Record<ForgeKind, string> = { github: '', gitlab: '/api/v4', gitea: '/api/v1' };

export async function startStandInForge(
  kind: ForgeKind,
  options: { token: string; repo: string },
): Promise<StandInForge> {
  const sockets = new Set<Socket>();
  let clock = 0;
  const now = (): string =>
    new Date(Date.parse('2026-11-28T08:00:00Z') + ++clock * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const forge: StandInForge = {
    kind,
    url: '',
    token: options.token,
    repo: options.repo,
    pulls: [],
    calls: {},
    answers: [],
    mode: 'normal',
    seed: (pull) => {
      const at = now();
      const number = forge.pulls.length + 1;
      const stored: StoredPull = {
        number,
        base: 'main',
        title: 't',
        body: '',
        state: 'open',
        fork: false,
        created_at: at,
        updated_at: at,
        ...pull,
      };
      forge.pulls.push(stored);
      return stored;
    },
    down: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
    up: () => new Promise((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => answer(forge, req, res, text, now));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  forge.url = `http://127.0.0.1:${port}${PREFIX[kind]}`;
  return forge;
}

function send(
  forge: StandInForge,
  res: http.ServerResponse,
  call: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  forge.answers.push({ call, status, body });
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain' : 'application/json; charset=utf-8';
  res.writeHead(status, { 'content-type': type, ...headers }).end(text);
}

/** Which call a request is, by forge: null for a route the stand-in does not serve. */
function route(kind: ForgeKind, method: string, path: string): { call: string; repo: string; number?: number } | null {
  const m =
    kind === 'gitlab'
      ? /^\/api\/v4\/projects\/([^/]+)(\/merge_requests(?:\/(\d+))?)?$/.exec(path)
      : new RegExp(`^${PREFIX[kind]}/repos/([^/]+/[^/]+?)(/pulls(?:/(\\d+))?)?$`).exec(path);
  if (!m) return null;
  const repo = decodeURIComponent(m[1] ?? '');
  const number = m[3] === undefined ? undefined : Number(m[3]);
  if (!m[2]) return method === 'GET' ? { call: 'repo', repo } : null;
  if (number === undefined)
    return method === 'GET' ? { call: 'list', repo } : method === 'POST' ? { call: 'create', repo } : null;
  return method === (kind === 'gitlab' ? 'PUT' : 'PATCH') ? { call: 'update', repo, number } : null;
}

function authorized(forge: StandInForge, req: http.IncomingMessage): boolean {
  const auth = req.headers.authorization ?? '';
  if (forge.kind === 'gitlab' && req.headers['private-token'] === forge.token) return true;
  return auth === `token ${forge.token}` || auth === `Bearer ${forge.token}` || auth === `bearer ${forge.token}`;
}

function answer(
  forge: StandInForge,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  text: string,
  now: () => string,
): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const found = route(forge.kind, req.method ?? 'GET', url.pathname);
  const call = found?.call ?? 'other';
  forge.calls[call] = (forge.calls[call] ?? 0) + 1;
  if (forge.mode === 'slow') return; // held: the caller's deadline must end it
  const refusal = failureOf(forge);
  if (refusal) return send(forge, res, call, refusal.status, refusal.body, refusal.headers);
  if (!authorized(forge, req)) return send(forge, res, call, 401, unauthorizedBody(forge.kind));
  if (!found) return send(forge, res, call, 404, notFoundBody(forge.kind, 'route'));
  if (found.repo !== forge.repo) return send(forge, res, call, 404, notFoundBody(forge.kind, 'repo'));
  const web = `http://127.0.0.1:${req.socket.localPort}`;
  const shape = (pull: StoredPull, simple: boolean): unknown => {
    if (forge.kind === 'github') return githubPull(forge.url, forge.repo, pull, simple);
    return forge.kind === 'gitlab' ? gitlabMergeRequest(web, forge.repo, pull) : giteaPull(web, forge.repo, pull);
  };
  if (found.call === 'repo') {
    const id = forge.kind === 'gitlab' ? 42 : 1;
    const repo =
      forge.kind === 'github'
        ? githubRepo(forge.url, forge.repo)
        : { id, path_with_namespace: forge.repo, full_name: forge.repo };
    return send(forge, res, call, 200, repo);
  }
  if (found.call === 'list')
    return send(
      forge,
      res,
      call,
      200,
      listed(forge, url.searchParams).map((p) => shape(p, true)),
    );
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    const problem =
      forge.kind === 'github'
        ? { message: 'Problems parsing JSON', documentation_url: GITHUB_DOCS, status: '400' }
        : { message: 'bad JSON' };
    return send(forge, res, call, 400, problem);
  }
  if (found.call === 'create') {
    const head = String((forge.kind === 'gitlab' ? body.source_branch : body.head) ?? '');
    const base = String((forge.kind === 'gitlab' ? body.target_branch : body.base) ?? '');
    const title = String(body.title ?? '');
    const open = forge.pulls.find(
      (p) => p.state === 'open' && !p.fork && p.head === head && (forge.kind === 'gitlab' || p.base === base),
    );
    if (open) return send(forge, res, call, forge.kind === 'github' ? 422 : 409, duplicateBody(forge, open));
    const pull = forge.seed({
      head,
      base,
      title,
      body: String((forge.kind === 'gitlab' ? body.description : body.body) ?? ''),
    });
    return send(forge, res, call, 201, shape(pull, false));
  }
  const pull = forge.pulls.find((p) => p.number === found.number);
  if (!pull) return send(forge, res, call, 404, notFoundBody(forge.kind, 'pull'));
  pull.title = String(body.title ?? pull.title);
  pull.body = String((forge.kind === 'gitlab' ? body.description : body.body) ?? pull.body);
  pull.updated_at = now();
  return send(forge, res, call, forge.kind === 'gitea' ? 201 : 200, shape(pull, false));
}

/** Open pull requests as the forge filters them: GitHub by `head=owner:branch`, GitLab by `source_branch`, paged. */
function listed(forge: StandInForge, query: URLSearchParams): StoredPull[] {
  const owner = forge.repo.split('/')[0];
  let pulls = forge.pulls.filter((p) => p.state === 'open');
  const head = query.get('head');
  if (forge.kind === 'github' && head?.includes(':'))
    pulls = pulls.filter((p) => `${p.fork ? 'someone-else' : owner}:${p.head}` === head);
  const source = query.get('source_branch');
  if (forge.kind === 'gitlab' && source) pulls = pulls.filter((p) => p.head === source);
  const perPage = Number(query.get(forge.kind === 'gitea' ? 'limit' : 'per_page') ?? 30);
  const page = Number(query.get('page') ?? 1);
  return pulls.slice((page - 1) * perPage, page * perPage);
}

function duplicateBody(forge: StandInForge, open: StoredPull): unknown {
  const owner = forge.repo.split('/')[0];
  if (forge.kind === 'github') {
    const message = `A pull request already exists for ${owner}:${open.head}.`;
    const errors = [{ resource: 'PullRequest', code: 'custom', message }];
    return {
      message: 'Validation Failed',
      errors,
      documentation_url: `${GITHUB_DOCS}#create-a-pull-request`,
      status: '422',
    };
  }
  if (forge.kind === 'gitlab')
    return { message: [`Another open merge request already exists for this source branch: !${open.number}`] };
  const ids = `id: ${3000 + open.number}, issue_id: ${open.number}, head_repo_id: 1, base_repo_id: 1`;
  const targets = `[${ids}, head_branch: ${open.head}, base_branch: ${open.base}]`;
  return { message: `pull request already exists for these targets ${targets}`, url: 'http://127.0.0.1/api/swagger' };
}

function unauthorizedBody(kind: ForgeKind): unknown {
  if (kind === 'github')
    return { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' };
  if (kind === 'gitlab') return { message: '401 Unauthorized' };
  return { message: 'user does not exist [uid: 0, name: ]', url: 'http://127.0.0.1/api/swagger' };
}

function notFoundBody(kind: ForgeKind, what: 'route' | 'repo' | 'pull'): unknown {
  if (kind === 'github')
    return { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' };
  if (kind === 'gitlab')
    return { message: what === 'repo' ? '404 Project Not Found' : what === 'pull' ? '404 Not found' : '404 Not Found' };
  return { message: "The target couldn't be found.", url: 'http://127.0.0.1/api/swagger', errors: [] };
}

/** The answer of a failure mode, whatever the request. */
function failureOf(forge: StandInForge): { status: number; body: unknown; headers?: Record<string, string> } | null {
  const reset = String(Math.floor(Date.now() / 1000) + 60);
  switch (forge.mode) {
    case 'unauthorized':
      return { status: 401, body: unauthorizedBody(forge.kind) };
    case 'forbidden':
      if (forge.kind === 'github') {
        return {
          status: 403,
          body: {
            message: 'Resource not accessible by personal access token',
            documentation_url: GITHUB_DOCS,
            status: '403',
          },
        };
      }
      if (forge.kind === 'gitlab') return { status: 403, body: { message: '403 Forbidden' } };
      return {
        status: 403,
        body: { message: 'token does not have at least one of required scope(s): [write:repository]', url: '' },
      };
    case 'rate-limited':
      if (forge.kind === 'github') {
        const headers = {
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-used': '5000',
          'x-ratelimit-reset': reset,
        };
        const body = {
          message: 'API rate limit exceeded for user ID 7.',
          documentation_url: 'https://docs.github.com/rest/rate-limit',
          status: '403',
        };
        return { status: 403, body, headers: { ...headers, 'x-ratelimit-resource': 'core' } };
      }
      return {
        status: 429,
        body: 'Retry later\n',
        headers: { 'retry-after': '60', 'ratelimit-remaining': '0', 'ratelimit-reset': reset },
      };
    case 'too-many':
      return {
        status: 429,
        body:
          forge.kind === 'github'
            ? { message: 'You have exceeded a secondary rate limit.', status: '429' }
            : 'Retry later\n',
        headers: { 'retry-after': '30' },
      };
    case 'server-error':
      return { status: 502, body: forge.kind === 'gitlab' ? 'GitLab is not responding' : { message: 'Server Error' } };
    case 'huge':
      return { status: 200, body: `[${'{"pad":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},'.repeat(20_000)}{}]` };
    case 'echo-token': // a careless proxy repeating the credential it refused
      return { status: 400, body: { message: `credential ${forge.token} is not accepted here` } };
    case 'redirect':
      return { status: 302, body: '', headers: { location: 'http://127.0.0.2:9/elsewhere' } };
    default:
      return null;
  }
}
