/**
 * The store's families, read at each scrape from its public methods: what is served and how it
 * stands (readiness), the watcher's events, writes by outcome and the write loop's retry reasons
 * (retries.ts), and with GIT_SYNC the clone against its remote branch. The git families carry the
 * tracked branch as `upstream` (`origin/main`: a remote's name, never its URL), so without GIT_SYNC
 * they have no series at all rather than zeros that would read as "in step".
 */
import { Histogram, type Registry } from 'prom-client';
import type { NetworkStore } from '../store/index.js';
import { ageSeconds, counterFrom, gaugeFrom, PerScrape, type Series } from './families.js';

/** What the metrics read of the store. */
export type StoreSource = Pick<NetworkStore, 'readiness' | 'retryCounts' | 'counts'>;

/** A push takes a round trip and a git process: tens of milliseconds on loopback, seconds to a slow host. */
const PUSH_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

function snapshotOf(store: StoreSource): {
  ready: ReturnType<StoreSource['readiness']>;
  counts: ReturnType<StoreSource['counts']>;
  retries: ReturnType<StoreSource['retryCounts']>;
} {
  return { ready: store.readiness(), counts: store.counts(), retries: store.retryCounts() };
}

export function storeFamilies(registry: Registry, store: StoreSource): { clear(): void } {
  const now = new PerScrape(() => snapshotOf(store));
  const one = (value: number): Array<Series<never>> => [[{}, value]];
  const byKey = <L extends string>(label: L, counts: Partial<Record<string, number>>): Array<Series<L>> =>
    Object.entries(counts).map(([key, n]) => [{ [label]: key } as Record<L, string>, n ?? 0]);
  gaugeFrom(registry, {
    name: 'netcfg_networks_served',
    help: 'Networks served now.',
    labelNames: [],
    series: () => one(now.read().ready.components.index.networks),
  });
  gaugeFrom(registry, {
    name: 'netcfg_invalid_files',
    help: 'Paths in the config folder not served as they are (invalid, twin, foreign), as readiness lists them.',
    labelNames: [],
    series: () => one(now.read().ready.components.index.invalid_files.length),
  });
  gaugeFrom(registry, {
    name: 'netcfg_ready',
    help: '1 while readiness answers 200, 0 while it answers 503.',
    labelNames: [],
    series: () => one(now.read().ready.ready ? 1 : 0),
  });
  gaugeFrom(registry, {
    name: 'netcfg_degraded',
    help: "1 while readiness says degraded (served, with a reason: bad files, a refused write, git's last failure, ...).",
    labelNames: [],
    series: () => one(now.read().ready.status === 'degraded' ? 1 : 0),
  });
  counterFrom(registry, {
    name: 'netcfg_watcher_events_total',
    help: 'File events the watcher reported since start, by chokidar event (add, change, unlink, addDir, unlinkDir).',
    labelNames: ['event'],
    series: () => byKey('event', now.read().counts.watcherEvents),
  });
  counterFrom(registry, {
    name: 'netcfg_writes_total',
    help: 'PATCHes through the store since start, by outcome: ok, or the error code it was refused with (lower case).',
    labelNames: ['outcome'],
    series: () => byKey('outcome', now.read().counts.writes),
  });
  counterFrom(registry, {
    name: 'netcfg_write_retries_total',
    help: 'Times a write was made again or waited since start, by reason (docs/architecture.md, the write loop).',
    labelNames: ['reason'],
    series: () => byKey('reason', now.read().retries),
  });
  gitFamilies(registry, now);
  return now;
}

/** GIT_SYNC's families: where the clone stands, how long since it last reached the remote, what failed, how long pushes take. */
function gitFamilies(registry: Registry, now: PerScrape<ReturnType<typeof snapshotOf>>): void {
  const sync = (): {
    upstream: string;
    ahead: number;
    behind: number;
    last_pull_at: string | null;
    last_push_at: string | null;
  } | null => {
    const git = now.read().ready.components.git;
    return git?.upstream === undefined
      ? null
      : {
          upstream: git.upstream,
          ahead: git.ahead ?? 0,
          behind: git.behind ?? 0,
          last_pull_at: git.last_pull_at ?? null,
          last_push_at: git.last_push_at ?? null,
        };
  };
  type Field = 'ahead' | 'behind' | 'pull_age' | 'push_age';
  const value = (field: Field): Array<Series<'upstream'>> => {
    const s = sync();
    if (s === null) return [];
    const v =
      field === 'ahead'
        ? s.ahead
        : field === 'behind'
          ? s.behind
          : ageSeconds(field === 'pull_age' ? s.last_pull_at : s.last_push_at);
    return v === null ? [] : [[{ upstream: s.upstream }, v]];
  };
  const counted = (field: 'pulls' | 'pull_failures' | 'push_failures'): Array<Series<'upstream'>> => {
    const s = sync();
    const counts = now.read().counts.git;
    return s === null || counts === null ? [] : [[{ upstream: s.upstream }, counts[field]]];
  };
  const labelNames = ['upstream'] as const;
  gaugeFrom(registry, {
    name: 'netcfg_git_behind_commits',
    help: 'GIT_SYNC: commits of the remote branch (as last fetched) the clone does not have yet.',
    labelNames,
    series: () => value('behind'),
  });
  gaugeFrom(registry, {
    name: 'netcfg_git_ahead_writes',
    help: 'GIT_SYNC: writes on disk waiting for their push.',
    labelNames,
    series: () => value('ahead'),
  });
  gaugeFrom(registry, {
    name: 'netcfg_git_last_pull_age_seconds',
    help: 'GIT_SYNC: seconds since a pull last reached the remote (no series before the first).',
    labelNames,
    series: () => value('pull_age'),
  });
  gaugeFrom(registry, {
    name: 'netcfg_git_last_push_age_seconds',
    help: 'GIT_SYNC: seconds since a push last reached the remote (no series before the first).',
    labelNames,
    series: () => value('push_age'),
  });
  counterFrom(registry, {
    name: 'netcfg_git_pulls_total',
    help: 'GIT_SYNC: pulls since start (by the interval or a webhook).',
    labelNames,
    series: () => counted('pulls'),
  });
  counterFrom(registry, {
    name: 'netcfg_git_pull_failures_total',
    help: 'GIT_SYNC: pulls since start that could not reach the remote, found its branch gone, or could not move the clone.',
    labelNames,
    series: () => counted('pull_failures'),
  });
  counterFrom(registry, {
    name: 'netcfg_git_push_failures_total',
    help: 'GIT_SYNC: pushes since start that failed for another reason than the branch moving on (unreachable, silent, gone).',
    labelNames,
    series: () => counted('push_failures'),
  });
  // Each push's duration is kept by the store; what was pushed since the last scrape is observed now.
  let seen = 0;
  let zeroed = false;
  new Histogram({
    name: 'netcfg_git_push_duration_seconds',
    help: 'GIT_SYNC: how long each git push took, whatever it ended in.',
    labelNames,
    buckets: PUSH_BUCKETS,
    registers: [registry],
    collect() {
      const s = sync();
      const counts = now.read().counts.git;
      if (s === null || counts === null) return;
      const upstream = { upstream: s.upstream };
      if (!zeroed) this.zero(upstream); // the family shows from the start, before the first push
      zeroed = true;
      const times = counts.push_seconds;
      for (const seconds of times.slice(Math.max(0, times.length - (counts.pushes - seen))))
        this.observe(upstream, seconds);
      seen = counts.pushes;
    },
  });
}
