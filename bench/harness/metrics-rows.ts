/**
 * GET /metrics' rows (issue 45), on two netcfg servers over the same 1,000 networks x 3 URLs with
 * the live prober on (fake JSON-RPC endpoints on loopback, as the prober's rows use), so the
 * metrics hold every URL's series:
 * - GET one network on the server scraped every second, against the other one, never scraped
 *   (their runs interleaved): what being scraped costs the reads;
 * - how long one scrape takes, once every URL was probed (20 scrapes in a row, one connection),
 *   and how many series it holds, by family: the cardinality the README states.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { TMP_DIR } from './fixtures.js';
import { percentileOf, Poller } from './http-poll.js';
import { describe, measureInterleaved, type Timing } from './load.js';
import { fakeEndpoint, writeFolder } from './probe-rows.js';
import { stopProcess } from './processes.js';
import { loadRow, type Row } from './results.js';
import { startNetcfg, type Server } from './servers.js';

const URLS = 3;
const NETWORKS = 1000;
const INTERVAL_MS = 10_000;
const SCRAPES = 20;

/** Waits until the prober has a status for every URL (the first round ends within the interval). */
async function untilAllProbed(server: Server, deadlineMs: number): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  while (performance.now() < deadline) {
    const body = (await (await fetch(`${server.url}/api/v1/ready`)).json()) as {
      components?: { rpc?: Record<string, unknown> };
    };
    const counted = Object.values(body.components?.rpc ?? {})
      .filter((v): v is number => typeof v === 'number')
      .reduce((a, b) => a + b, 0);
    if (counted >= NETWORKS * URLS) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${server.name}: not every URL was probed within ${deadlineMs} ms`);
}

/** Series in an exposition, by family (a histogram's buckets, sum and count counted as its own). */
export function seriesByFamily(text: string): Map<string, number> {
  const families = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1] as string);
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const name = line.slice(0, line.search(/[{ ]/));
    const family =
      families.find((f) => name === f || name === `${f}_bucket` || name === `${f}_sum` || name === `${f}_count`) ??
      name;
    counts.set(family, (counts.get(family) ?? 0) + 1);
  }
  return counts;
}

export async function metricsRows(timing: Timing, logLevel: string): Promise<Row[]> {
  const endpoints = await Promise.all(Array.from({ length: URLS }, () => fakeEndpoint()));
  const dir = path.join(TMP_DIR, 'metrics-1k');
  writeFolder(
    dir,
    endpoints.map((e) => (e.address() as AddressInfo).port),
  );
  const servers: Server[] = [];
  let scraper: NodeJS.Timeout | undefined;
  const poller: Poller[] = [];
  try {
    const env = { RPC_PROBE_INTERVAL_MS: String(INTERVAL_MS) };
    const scraped = await startNetcfg('netcfg-scraped', dir, { logLevel, env });
    servers.push(scraped);
    const quiet = await startNetcfg('netcfg-not-scraped', dir, { logLevel, env });
    servers.push(quiet);
    await Promise.all([untilAllProbed(scraped, 60_000), untilAllProbed(quiet, 60_000)]);

    const timer = new Poller(scraped.url);
    poller.push(timer);
    await timer.get('/metrics'); // the first scrape builds prom-client's series: not counted
    const durations: number[] = [];
    let text = '';
    for (let i = 0; i < SCRAPES; i++) {
      const started = performance.now();
      const res = await timer.get('/metrics');
      durations.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
      text = res.body;
    }
    const families = seriesByFamily(text);
    const total = [...families.values()].reduce((a, b) => a + b, 0);
    const netcfgOwn = [...families].filter(([f]) => f.startsWith('netcfg_')).reduce((a, [, n]) => a + n, 0);
    const largest = [...families]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([f, n]) => `${f} ${n}`)
      .join(', ');
    console.log(
      `GET /metrics, ${NETWORKS} networks x ${URLS} URLs probed: p50 ` +
        `${percentileOf(durations, 0.5).toFixed(1)} ms, max ${Math.max(...durations).toFixed(1)} ms; ` +
        `${total} series (${netcfgOwn} netcfg_*), ${(text.length / 1024).toFixed(0)} KiB; largest: ${largest}`,
    );
    const rows: Row[] = [
      {
        key: 'metrics-scrape/netcfg',
        group: `GET /metrics, ${NETWORKS} networks x ${URLS} URLs probed`,
        server: 'netcfg (prober on fake endpoints on loopback)',
        workload: `${SCRAPES} scrapes in a row on one kept-alive connection, after every URL was probed once`,
        p50: percentileOf(durations, 0.5),
        p99: Math.max(...durations),
        value: percentileOf(durations, 0.5),
        unit: 'ms',
        note: `${total} series (${netcfgOwn} netcfg_*), ${(text.length / 1024).toFixed(0)} KiB; largest families: ${largest}`,
      },
    ];

    // Scraped every second for as long as the reads are measured (both servers' runs: they interleave).
    const every = new Poller(scraped.url);
    poller.push(every);
    const underLoad: number[] = [];
    scraper = setInterval(() => {
      const started = performance.now();
      void every.get('/metrics').then(
        () => underLoad.push(performance.now() - started),
        () => undefined,
      );
    }, 1000);
    const id = 'evm:p0500';
    const [without, withScrape] = await measureInterleaved(
      [quiet, scraped].map((s) => ({ url: `${s.url}/api/v1/networks/${id}`, connections: 10, pid: s.child.pid })),
      timing,
    );
    clearInterval(scraper);
    const group = `GET one network, /metrics over ${NETWORKS} networks x ${URLS} URLs scraped every second`;
    console.log(describe(`${group} | not scraped`, without!));
    console.log(describe(`${group} | scraped`, withScrape!));
    const workload = `GET /api/v1/networks/${id}; RPC_PROBE_INTERVAL_MS=${INTERVAL_MS} on both; GET /metrics every 1 s on one`;
    const note = `${underLoad.length} scrapes during the runs, p50 ${percentileOf(underLoad, 0.5).toFixed(1)} ms, max ${Math.max(...underLoad).toFixed(1)} ms`;
    rows.push(
      loadRow('metrics-get/netcfg-off', group, 'netcfg, not scraped', workload, 10, without!),
      loadRow('metrics-get/netcfg', group, 'netcfg, scraped every second', workload, 10, withScrape!, note),
    );
    return rows;
  } finally {
    clearInterval(scraper);
    for (const p of poller) p.close();
    for (const s of servers) await stopProcess(s.child);
    for (const e of endpoints) {
      e.closeAllConnections();
      e.close();
    }
  }
}
