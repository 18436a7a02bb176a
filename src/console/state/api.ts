/**
 * The console's only way to the server: the same public API as any client, with the API key as
 * the bearer header and the envelope's error (code, message, details, ETag) kept as data.
 */

export interface Detail {
  pointer: string;
  message: string;
}

export interface RpcUrl {
  url: string;
  weight: number;
  /** From a secret reference: `url` is masked unless the token may reveal secrets. */
  secret?: boolean;
}

/** A network as the API serves it (the relayer's shape); only what the console reads is typed. */
export interface Network {
  id: string;
  network_type?: string;
  chain_id?: number;
  rpc_urls: RpcUrl[];
  [field: string]: unknown;
}

export interface Commit {
  sha: string;
  author: string;
  email: string;
  date: string;
  message: string;
  /** Who made the change through netcfg (`token:ops-alice`); null for a commit made outside it. */
  actor: string | null;
}

/** Who the key is (GET /api/v1/access/me); `name` null: no token is configured, everything is open. */
export interface Me {
  name: string | null;
  role: 'read' | 'propose' | 'write' | 'admin';
  networks: string[] | null;
  reveal_secrets: boolean;
  /** GIT_PROPOSALS is set (`enabled`), and GIT_PROPOSE_ONLY (every change is a proposal). */
  proposals?: { enabled: boolean; propose_only: boolean };
}

/** The pull request a proposal opened or updated (a PATCH's 202). */
export interface OpenedProposal {
  number: number;
  url: string;
  branch: string;
  network: string;
  state: string;
  updated: boolean;
}

/** An open proposal, as GET /api/v1/networks/{id}/proposals lists it. */
export interface ListedProposal {
  number: number;
  url: string;
  branch: string;
  actor: string;
  title: string;
  updated_at: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Detail[] = [],
  ) {
    super(message);
  }
}

export interface RpcWarning {
  url: string;
  status: string;
  error: string | null;
}

export interface Loaded<T> {
  data: T;
  etag: string | null;
  pagination?: { total_pages: number };
  /** A list's index revision. */
  revision?: number;
  /** RPC_PROBE_ON_PATCH=warn: what the new URLs answered that was not fine. */
  rpc_warnings?: RpcWarning[];
}

export class Api {
  constructor(
    private readonly key: string | null,
    /** Called on any 401: the key was refused (rotated, or the server's changed). */
    private readonly onUnauthorized: () => void = () => undefined,
  ) {}

  /** The bearer header for requests this class does not make (the change stream). */
  headers(): Record<string, string> {
    return this.key ? { authorization: `Bearer ${this.key}` } : {};
  }

  async get<T>(path: string): Promise<Loaded<T>> {
    return this.send<T>(path, { headers: this.headers() });
  }

  async post<T>(path: string): Promise<Loaded<T>> {
    return this.send<T>(path, { method: 'POST', headers: this.headers() });
  }

  /** A JSON body POSTed (adding a network); the answer's envelope as any other. */
  async postJson<T>(path: string, body: unknown): Promise<Loaded<T>> {
    return this.send<T>(path, {
      method: 'POST',
      headers: { ...this.headers(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  async patch(
    id: string,
    body: { rpc_urls: Array<{ url: string; weight: number | string }> },
    etag: string,
  ): Promise<Loaded<Network>> {
    return this.send<Network>(`/api/v1/networks/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      headers: { ...this.headers(), 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify(body),
    });
  }

  /** The change as a pull request (?propose=true): nothing served changes, the answer names the pull request. */
  async propose(
    id: string,
    body: { rpc_urls: Array<{ url: string; weight: number | string }> },
    etag: string,
  ): Promise<Loaded<{ proposal: OpenedProposal }>> {
    return this.send<{ proposal: OpenedProposal }>(`/api/v1/networks/${encodeURIComponent(id)}?propose=true`, {
      method: 'PATCH',
      headers: { ...this.headers(), 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify(body),
    });
  }

  /**
   * Every network, a hundred per request, four requests at a time. The pages must come from one
   * index revision: a network deleted between two pages would shift the next page and hide one
   * that never changes (so no event would bring it back). Read again until they agree.
   */
  async allNetworks(): Promise<Network[]> {
    for (let attempt = 1; ; attempt++) {
      const first = await this.get<Network[]>('/api/v1/networks?per_page=100&page=1');
      const pages = first.pagination?.total_pages ?? 1;
      const rest: Array<Loaded<Network[]>> = [];
      for (let page = 2; page <= pages; page += 4) {
        const batch = [page, page + 1, page + 2, page + 3].filter((p) => p <= pages);
        rest.push(
          ...(await Promise.all(batch.map((p) => this.get<Network[]>(`/api/v1/networks?per_page=100&page=${p}`)))),
        );
      }
      if (attempt === 5 || rest.every((r) => r.revision === first.revision))
        return [first, ...rest].flatMap((r) => r.data);
    }
  }

  private async send<T>(path: string, init: RequestInit): Promise<Loaded<T>> {
    let res: Response;
    try {
      res = await fetch(path, init);
    } catch {
      throw new ApiError(0, 'NETWORK_ERROR', 'The server cannot be reached; check that netcfg is running.');
    }
    const body = (await res.json().catch(() => null)) as {
      success?: boolean;
      data?: T;
      pagination?: { total_pages: number };
      revision?: number;
      rpc_warnings?: RpcWarning[];
      error?: string | null;
      code?: string;
      details?: Detail[];
    } | null;
    if (!res.ok || !body || body.success === false) {
      if (res.status === 401) this.onUnauthorized();
      throw new ApiError(
        res.status,
        body?.code ?? `HTTP_${res.status}`,
        body?.error ?? `The server answered HTTP ${res.status}.`,
        body?.details ?? [],
      );
    }
    const { pagination, revision, rpc_warnings } = body;
    return {
      data: body.data as T,
      etag: res.headers.get('etag'),
      ...(pagination ? { pagination } : {}),
      ...(revision !== undefined ? { revision } : {}),
      ...(rpc_warnings ? { rpc_warnings } : {}),
    };
  }
}
