/**
 * Readiness as the console reads it: the banner's invalid files and git component, and whether
 * the server runs the live prober (its `rpc` component), so that no page asks a route the server
 * does not have. Read again when a change arrives (once the burst settles) and every 15 s, since
 * a file turning invalid changes no network and so sends no event.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api } from './api.js';
import type { Subscribe } from './live.js';

export interface Readiness {
  status: string;
  components: {
    index: { invalid_files: Array<{ path: string; line: number; column: number; error: string }> };
    git?: { status: string; pending_commits?: number; head?: string; upstream?: string; ahead?: number; behind?: number; last_error?: string | null; error?: string };
    rpc?: { status: string };
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
      if (event.kind === 'rpc_health') return;
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
