/**
 * Self-healing RPC lists (RPC_AUTO_DISABLE), when netcfg is given a view of them: how many URLs the
 * prober disabled and restored since start, which changes it skipped and why (its guards: the last
 * enabled URL, the hourly cap, a person's change, ...), and how many URLs stand disabled by it now.
 * The view's shape is all the metrics know of it; the reasons are its own closed list.
 */
import type { Registry } from 'prom-client';
import { counterFrom, gaugeFrom, PerScrape } from './families.js';

/** What the metrics read of the self-healing. */
export interface AutoHealView {
  counts(): { disabled: number; restored: number; skipped: Record<string, number> };
  disabledNow(): number;
}

export function autoHealFamilies(registry: Registry, heal: AutoHealView): { clear(): void } {
  const now = new PerScrape(() => heal.counts());
  counterFrom(registry, { name: 'netcfg_rpc_auto_disabled_total', help: 'RPC URLs the prober disabled (weight 0) since start.', labelNames: [], series: () => [[{}, now.read().disabled]] });
  counterFrom(registry, { name: 'netcfg_rpc_auto_restored_total', help: 'RPC URLs the prober gave their weight back since start.', labelNames: [], series: () => [[{}, now.read().restored]] });
  counterFrom(registry, {
    name: 'netcfg_rpc_auto_skipped_total',
    help: 'Automatic changes the prober did not make since start, by the guard that stopped it.',
    labelNames: ['reason'],
    series: () => Object.entries(now.read().skipped).map(([reason, n]) => [{ reason }, n]),
  });
  gaugeFrom(registry, { name: 'netcfg_rpc_auto_disabled_urls', help: 'RPC URLs standing disabled by the prober now.', labelNames: [], series: () => [[{}, heal.disabledNow()]] });
  return now;
}
