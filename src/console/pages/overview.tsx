/**
 * Every network at a glance: a table filtered as you type, fifty rows a page, kept current by the
 * change stream (a network changed on disk or by another operator is fetched again).
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, type Api, type Network } from '../state/api.js';
import { Banner, Pager } from '../layout.js';
import { Relayers } from './relayers.js';
import type { Subscribe } from '../state/live.js';
import { useRpcHealth, type Readiness } from '../state/server-state.js';

const PER_PAGE = 50;

function matches(network: Network, filter: string): boolean {
  if (filter === '') return true;
  const text =
    `${network.id} ${network.network_type ?? ''} ${network.chain_id ?? ''} ${network.rpc_urls.map((u) => u.url).join(' ')}`.toLowerCase();
  return filter
    .toLowerCase()
    .split(/\s+/)
    .every((word) => text.includes(word));
}

export function Overview(props: { api: Api; subscribe: Subscribe; ready: Readiness | null; mayAdd?: boolean }) {
  const { api, subscribe, ready, mayAdd = false } = props;
  const [networks, setNetworks] = useState<Map<string, Network> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const asked = useRef(new Map<string, number>()); // per network, the latest fetch: an older answer is dropped
  const health = useRpcHealth(api, subscribe, ready?.components.rpc !== undefined);

  useEffect(() => {
    let loads = 0;
    let waiting: Set<string> | null = null; // networks changed while the whole list loads
    /** One network again: its latest answer wins; gone (404) removes its row. */
    const refresh = (id: string): void => {
      const mine = (asked.current.get(id) ?? 0) + 1;
      asked.current.set(id, mine);
      api.get<Network>(`/api/v1/networks/${encodeURIComponent(id)}`).then(
        ({ data }) => asked.current.get(id) === mine && setNetworks((m) => m && new Map(m).set(id, data)),
        (err: unknown) =>
          asked.current.get(id) === mine &&
          err instanceof ApiError &&
          err.status === 404 &&
          setNetworks((m) => m && new Map([...m].filter(([k]) => k !== id))),
      );
    };
    const loadAll = (): void => {
      const mine = ++loads;
      waiting = new Set();
      api.allNetworks().then(
        (list) => {
          if (mine !== loads) return;
          setNetworks(new Map(list.map((n) => [n.id, n])));
          const changed = waiting ?? new Set<string>();
          waiting = null;
          changed.forEach(refresh);
        },
        (err: unknown) => mine === loads && setError(err instanceof ApiError ? err.message : String(err)),
      );
    };
    loadAll();
    return subscribe((event) => {
      const id = event.data.id;
      if (event.kind === 'reset') return loadAll();
      if (!id || !['added', 'modified', 'deleted'].includes(event.kind)) return;
      if (waiting) return void waiting.add(id);
      refresh(id);
    });
  }, [api]);

  const shown = useMemo(
    () => [...(networks?.values() ?? [])].filter((n) => matches(n, filter)).sort((a, b) => a.id.localeCompare(b.id)),
    [networks, filter],
  );
  const pages = Math.max(1, Math.ceil(shown.length / PER_PAGE));
  const current = Math.min(page, pages);
  const rows = shown.slice((current - 1) * PER_PAGE, current * PER_PAGE);

  return (
    <>
      <Banner ready={ready} />
      <Relayers api={api} subscribe={subscribe} enabled={ready?.components.relayers !== undefined} />
      <div class="heading">
        <h1>Networks</h1>
        {mayAdd && (
          <a href="#/add-network" class="button">
            Add a network
          </a>
        )}
      </div>
      {error && (
        <p role="alert" class="problem">
          {error}
        </p>
      )}
      <div class="toolbar">
        <label for="filter">Filter</label>
        <input
          id="filter"
          type="search"
          value={filter}
          placeholder="id, family, chain id or URL"
          onInput={(e) => (setFilter(e.currentTarget.value), setPage(1))}
        />
        <span role="status">{networks ? `${shown.length} of ${networks.size} networks` : 'Loading networks...'}</span>
      </div>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Network</th>
              <th scope="col">Family</th>
              <th scope="col">Chain ID</th>
              <th scope="col">RPC URLs</th>
              {health && <th scope="col">RPC health</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((n) => (
              <tr key={n.id}>
                <td>
                  <a href={`#/networks/${encodeURIComponent(n.id)}`}>{n.id}</a>
                </td>
                <td>{n.network_type ?? n.id.slice(0, n.id.indexOf(':'))}</td>
                <td>{n.chain_id ?? ''}</td>
                <td>{n.rpc_urls.length}</td>
                {health && <td>{health.get(n.id) ?? 'pending'}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={current} pages={pages} onPage={setPage} />
    </>
  );
}
