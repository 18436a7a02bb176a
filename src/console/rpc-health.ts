/**
 * The live prober's findings for the overview (RPC_PROBE_INTERVAL_MS): each network's URL
 * statuses as one short text, read again when an `rpc_health` event says a status changed.
 * Null when the server does not probe (readiness has no `rpc` component).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api } from './api.js';
import type { Subscribe } from './live.js';

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
