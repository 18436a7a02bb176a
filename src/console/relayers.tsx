/**
 * The relayers netcfg keeps in sync (RELAYER_SYNC_FILE), on the overview: each one's state and
 * counts, and every network not in sync with why (the value a drifted relayer holds, the reason a
 * call failed, a network it lacks). Shown only when readiness has a `relayers` component, read
 * again after a `relayer_sync` event or a change of a network (once the burst settles).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api } from './api.js';
import type { Subscribe } from './live.js';

interface RelayerStatus {
  name: string;
  url: string;
  state: string;
  last_pass_at: string | null;
  last_error: string | null;
  counts: { in_sync: number; drifted: number; missing: number; failing: number; extra: number };
  networks: Array<{ id: string; state: string; relayer?: Array<{ url: string; weight: number }>; error?: string }>;
}

function useRelayers(api: Api, subscribe: Subscribe, enabled: boolean): RelayerStatus[] | null {
  const [relayers, setRelayers] = useState<RelayerStatus[] | null>(null);
  useEffect(() => {
    if (!enabled) return setRelayers(null);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = (): void => {
      api.get<RelayerStatus[]>('/api/v1/relayers').then(
        ({ data }) => setRelayers(data),
        () => setRelayers(null),
      );
    };
    load();
    const off = subscribe((event) => {
      if (event.kind === 'rpc_health') return;
      clearTimeout(timer);
      timer = setTimeout(load, event.kind === 'relayer_sync' ? 0 : 500);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [api, enabled]);
  return relayers;
}

/** Why a network is not in sync on a relayer, in words. */
function why(network: RelayerStatus['networks'][number]): string {
  if (network.state === 'drifted') return `drifted: the relayer holds ${(network.relayer ?? []).map((u) => `${u.url} (weight ${u.weight})`).join(', ')}; being set back`;
  return `${network.state}: ${network.error ?? ''}`;
}

export function Relayers({ api, subscribe, enabled }: { api: Api; subscribe: Subscribe; enabled: boolean }) {
  const relayers = useRelayers(api, subscribe, enabled);
  if (!relayers) return null;
  return (
    <section class={relayers.every((r) => r.state === 'in_sync') ? 'banner' : 'banner problem'} aria-labelledby="relayers-title">
      <h2 id="relayers-title">Relayers kept in sync</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Relayer</th>
            <th scope="col">State</th>
            <th scope="col">In sync</th>
            <th scope="col">Drifted</th>
            <th scope="col">Missing</th>
            <th scope="col">Failing</th>
          </tr>
        </thead>
        <tbody>
          {relayers.map((r) => (
            <tr key={r.name}>
              <th scope="row">{r.name}</th>
              <td>{r.state}</td>
              <td>{r.counts.in_sync}</td>
              <td>{r.counts.drifted}</td>
              <td>{r.counts.missing}</td>
              <td>{r.counts.failing}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {relayers.map(
        (r) =>
          (r.last_error !== null || r.networks.length > 0) && (
            <ul key={r.name} aria-label={`Not in sync on ${r.name}`}>
              {r.last_error && <li>{r.last_error}</li>}
              {r.networks.map((n) => (
                <li key={n.id}>
                  <a href={`#/networks/${encodeURIComponent(n.id)}`}>{n.id}</a>: {why(n)}
                </li>
              ))}
            </ul>
          ),
      )}
    </section>
  );
}
