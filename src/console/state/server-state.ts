/**
 * What the server says of itself, as hooks for the pages. Readiness: the banner's invalid files
 * and git component, and whether the server runs the live prober (its `rpc` component), so that no
 * page asks a route the server does not have; read again when a change arrives (once the burst
 * settles) and every 15 s, since a file turning invalid changes no network and so sends no event.
 * RPC health: each probed network's URL statuses as one short text, read again after an
 * `rpc_health` event. Relayers (RELAYER_SYNC_FILE): each one's state and findings, read again after a
 * `relayer_sync` event or a change of a network (once the burst settles).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api } from './api.js';
import type { Subscribe } from './live.js';

export interface Readiness {
  status: string;
  components: {
    index: { invalid_files: Array<{ path: string; line: number; column: number; error: string }> };
    git?: {
      status: string;
      pending_commits?: number;
      head?: string;
      upstream?: string;
      ahead?: number;
      behind?: number;
      last_error?: string | null;
      error?: string;
    };
    rpc?: { status: string };
    relayers?: { status: string };
  };
}

export function useReadiness(api: Api | null, subscribe: Subscribe): Readiness | null {
  const [ready, setReady] = useState<Readiness | null>(null);
  useEffect(() => {
    if (!api) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async (): Promise<void> => {
      const res = await fetch('/api/v1/ready', { headers: api.headers() }).catch(() => null);
      const body = (await res?.json().catch(() => null)) as Readiness | null | undefined;
      if (body?.components) setReady(body);
    };
    void load();
    const every = setInterval(() => void load(), 15_000);
    const off = subscribe((event) => {
      if (event.kind === 'rpc_health' || event.kind === 'relayer_sync') return;
      clearTimeout(timer);
      timer = setTimeout(() => void load(), 300);
    });
    return () => {
      off();
      clearTimeout(timer);
      clearInterval(every);
    };
  }, [api]);
  return ready;
}

/** Each network's probe findings as text (`3 ok`); null when the server does not probe. */
export function useRpcHealth(api: Api, subscribe: Subscribe, probing: boolean): Map<string, string> | null {
  const [health, setHealth] = useState<Map<string, string> | null>(null);
  useEffect(() => {
    if (!probing) return setHealth(null);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = (): void => {
      api.get<Array<{ id: string; counts: Record<string, number> }>>('/api/v1/rpc-health').then(
        ({ data }) => setHealth(new Map(data.map(({ id, counts }) => [id, summary(counts)]))),
        () => setHealth(null),
      );
    };
    load();
    const off = subscribe((event) => {
      if (event.kind !== 'rpc_health') return;
      clearTimeout(timer);
      timer = setTimeout(load, 500);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [api, probing]);
  return health;
}

/** `3 ok`, or the problems first: `1 wrong_chain, 2 ok`. */
function summary(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([a], [b]) => Number(a === 'ok') - Number(b === 'ok'))
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
}

export interface RelayerFinding {
  network: string | null;
  kind: 'drift' | 'stale' | 'missing' | 'extra' | 'failing';
  fields: string[];
  relayer_value: unknown;
  netcfg_value: unknown;
  sent: unknown;
  found_at: string;
  resolved_at: string | null;
}

export interface RelayerStatus {
  name: string;
  url: string;
  state: string;
  scope: string[] | null;
  self_heal: boolean;
  last_pass_at: string | null;
  last_error: string | null;
  counts: { in_sync: number; drifted: number; stale: number; missing: number; failing: number; extra: number };
  counts_at: string | null;
  networks: Array<{
    id: string;
    state: string;
    fields?: string[];
    relayer?: Record<string, unknown>;
    netcfg?: Record<string, unknown>;
    error?: string;
  }>;
  extra: string[];
  lease?: { holder: string | null; this_replica: string; expires_at: string | null };
  /** Newest first (GET /api/v1/relayers/{name}). */
  findings: RelayerFinding[];
}

/** The relayers kept in sync; null when the server keeps none (readiness has no `relayers` component). */
export function useRelayers(api: Api, subscribe: Subscribe, enabled: boolean): RelayerStatus[] | null {
  const [relayers, setRelayers] = useState<RelayerStatus[] | null>(null);
  useEffect(() => {
    if (!enabled) return setRelayers(null);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = (): void => {
      // Each relayer with its findings (the list route has no findings): read one by one, as it changes rarely.
      api
        .get<RelayerStatus[]>('/api/v1/relayers')
        .then(({ data }) =>
          Promise.all(
            data.map((r) =>
              api.get<RelayerStatus>(`/api/v1/relayers/${encodeURIComponent(r.name)}`).then((d) => d.data),
            ),
          ),
        )
        .then(setRelayers, () => setRelayers(null));
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

interface UrlHealth {
  index: number;
  status: string;
  error: string | null;
  auto_disabled_at?: string;
  reason?: string;
}

const urlHealthText = (h: UrlHealth): string =>
  (h.error ? `${h.status}: ${h.error}` : h.status) +
  (h.auto_disabled_at
    ? `; auto-disabled by netcfg's prober at ${h.auto_disabled_at} (${h.reason ?? ''}); see history`
    : '');

/**
 * What the live prober last found for each RPC URL of one network, by index in rpc_urls (the
 * server shows URLs redacted, so the index is what matches); empty when the server does not probe.
 */
export function useUrlHealth(api: Api, subscribe: Subscribe, id: string, probing: boolean): Map<number, string> {
  const [health, setHealth] = useState(new Map<number, string>());
  const path = `/api/v1/networks/${encodeURIComponent(id)}`;
  useEffect(() => {
    if (!probing) return;
    const load = (): void => {
      api.get<UrlHealth[]>(`${path}/rpc-health`).then(
        ({ data }) => setHealth(new Map(data.map((h) => [h.index, urlHealthText(h)]))),
        () => undefined, // shown again at the next rpc_health event
      );
    };
    load();
    // A change to the network can move its URLs, and with them what each index means.
    return subscribe((event) => {
      if (event.kind === 'reset' || (event.data.id === id && ['rpc_health', 'added', 'modified'].includes(event.kind)))
        load();
    });
  }, [id, probing]);

  return health;
}
