/**
 * The live prober's families (RPC_PROBE_INTERVAL_MS), per network and URL, read at each scrape
 * from what the prober last found: the status as one series per URL whose `status` label is the
 * current one (value 1; a change of status ends the old series), the latency of its last answer
 * and how far its head is behind the network's head (head-rule.ts). The URL is what the prober keeps
 * (a secret reference's value already masked), redacted again like every URL netcfg shows: the
 * labels hold no key. Networks and URLs no longer probed leave the output at the next scrape.
 * And self-healing RPC lists (RPC_AUTO_DISABLE), when netcfg is given a view of them: how many URLs
 * the prober disabled and restored since start, which changes it skipped and why (its guards: the
 * last enabled URL, the hourly cap, a person's change, ...), and how many stand disabled by it now.
 */
import type { Registry } from 'prom-client';
import type { LiveProber } from '../probe/live-prober.js';
import type { UrlHealth } from '../probe/chain-probe.js';
import { redactUrl } from '../redact.js';
import { counterFrom, gaugeFrom, PerScrape, type Series } from './families.js';

/** What the metrics read of the live prober. */
export type ProberSource = Pick<LiveProber, 'statuses' | 'of'>;

interface Probed {
  network: string;
  url: string;
  health: UrlHealth;
}

/**
 * Every URL probed, labelled by network and redacted URL. Two URLs of one network that redact
 * alike (two keys on one host) would be one series; each after the first gets `#2`, `#3`, ... in
 * the order of its network's URLs, so neither hides the other.
 */
export function probedUrls(prober: ProberSource, redact: (url: string) => string = redactUrl): Probed[] {
  const all: Probed[] = [];
  for (const { id } of prober.statuses()) {
    const seen = new Map<string, number>();
    for (const health of prober.of(id) ?? []) {
      const shown = redact(health.url);
      const n = (seen.get(shown) ?? 0) + 1;
      seen.set(shown, n);
      all.push({ network: id, url: n === 1 ? shown : `${shown}#${n}`, health });
    }
  }
  return all;
}

/**
 * redactUrl with the last scrape's answers kept: parsing 3,000 URLs was half a scrape's time, and
 * the URLs probed change rarely. Only the URLs of this scrape are kept for the next.
 */
function keptRedactions(): () => (url: string) => string {
  let last = new Map<string, string>();
  return () => {
    const before = last;
    last = new Map();
    return (url) => {
      const shown = before.get(url) ?? last.get(url) ?? redactUrl(url);
      last.set(url, shown);
      return shown;
    };
  };
}

export function probeFamilies(registry: Registry, prober: ProberSource): { clear(): void } {
  const redactions = keptRedactions();
  const now = new PerScrape(() => probedUrls(prober, redactions()));
  const each = <L extends string>(
    value: (p: Probed) => [Partial<Record<L, string>>, number | null],
  ): Array<Series<L | 'network' | 'url'>> => {
    const out: Array<Series<L | 'network' | 'url'>> = [];
    for (const p of now.read()) {
      const [labels, v] = value(p);
      if (v !== null)
        out.push([{ network: p.network, url: p.url, ...labels } as Partial<Record<L | 'network' | 'url', string>>, v]);
    }
    return out;
  };
  gaugeFrom(registry, {
    name: 'netcfg_rpc_url_status',
    help:
      "The live prober's last verdict on each RPC URL: one series per URL, labelled with its status (ok, " +
      'wrong_chain, lagging, unreachable, bad_response), value 1.',
    labelNames: ['network', 'url', 'status'],
    series: () => each((p) => [{ status: p.health.status }, 1]),
  });
  gaugeFrom(registry, {
    name: 'netcfg_rpc_url_latency_seconds',
    help: "How long each RPC URL took to answer the prober's last probe (no series while it does not answer).",
    labelNames: ['network', 'url'],
    series: () => each((p) => [{}, p.health.latency_ms === null ? null : p.health.latency_ms / 1000]),
  });
  gaugeFrom(registry, {
    name: 'netcfg_rpc_url_head_lag_blocks',
    help: "How many blocks each RPC URL's head was behind its network's head (the median rule) at the last probe (no series without a head).",
    labelNames: ['network', 'url'],
    series: () => each((p) => [{}, p.health.lag]),
  });
  return now;
}

/** What the metrics read of the self-healing: its view's shape is all they know of it, and its reasons are its own closed list. */
export interface AutoHealCounts {
  counts(): { disabled: number; restored: number; skipped: Record<string, number> };
  disabledNow(): number;
}

export function autoHealFamilies(registry: Registry, heal: AutoHealCounts): { clear(): void } {
  const now = new PerScrape(() => heal.counts());
  counterFrom(registry, {
    name: 'netcfg_rpc_auto_disabled_total',
    help: 'RPC URLs the prober disabled (weight 0) since start.',
    labelNames: [],
    series: () => [[{}, now.read().disabled]],
  });
  counterFrom(registry, {
    name: 'netcfg_rpc_auto_restored_total',
    help: 'RPC URLs the prober gave their weight back since start.',
    labelNames: [],
    series: () => [[{}, now.read().restored]],
  });
  counterFrom(registry, {
    name: 'netcfg_rpc_auto_skipped_total',
    help: 'Automatic changes the prober did not make since start, by the guard that stopped it.',
    labelNames: ['reason'],
    series: () => Object.entries(now.read().skipped).map(([reason, n]) => [{ reason }, n]),
  });
  gaugeFrom(registry, {
    name: 'netcfg_rpc_auto_disabled_urls',
    help: 'RPC URLs standing disabled by the prober now.',
    labelNames: [],
    series: () => [[{}, heal.disabledNow()]],
  });
  return now;
}
