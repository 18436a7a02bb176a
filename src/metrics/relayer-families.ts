/**
 * The relayer sync's families (RELAYER_SYNC_FILE), per relayer, read at each scrape from its
 * status: its state as one series labelled with the current one, its networks by state (in sync,
 * drifted, stale, missing, failing, and extra: only the relayer has them), the PATCHes it was sent,
 * the findings opened by kind, and when and how long since its last full pass. The label is the relayer's name from RELAYER_SYNC_FILE: never
 * its URL, its key or the variable holding the key.
 */
import type { Registry } from 'prom-client';
import type { TargetStatus } from '../relayer/sync/target-status.js';
import { ageSeconds, counterFrom, gaugeFrom, PerScrape, type Series } from './families.js';

/** What the metrics read of the relayer sync. */
export interface RelayerSource {
  status(): TargetStatus[];
  lease?(): { holder: string | null; this_replica: string } | null;
}

export function relayerFamilies(registry: Registry, relayers: RelayerSource): { clear(): void } {
  const now = new PerScrape(() => relayers.status());
  const each = <L extends string>(
    value: (t: TargetStatus) => Array<[Partial<Record<L, string>>, number | null]>,
  ): Array<Series<L | 'target'>> =>
    now
      .read()
      .flatMap((t) =>
        value(t).flatMap(([labels, v]) =>
          v === null ? [] : [[{ target: t.name, ...labels }, v] as Series<L | 'target'>],
        ),
      );
  gaugeFrom(registry, {
    name: 'netcfg_relayer_state',
    help: 'Each relayer kept in sync, labelled with its state (pending, standby, in_sync, drifted, stale, missing, failing), value 1.',
    labelNames: ['target', 'state'],
    series: () => each((t) => [[{ state: t.state }, 1]]),
  });
  gaugeFrom(registry, {
    name: 'netcfg_relayer_networks',
    help:
      'Networks of each relayer by state: in_sync, drifted, stale (a field its API cannot change), ' +
      'missing, failing (its last PATCH refused), extra (only the relayer has it).',
    labelNames: ['target', 'state'],
    series: () =>
      each((t) => Object.entries(t.counts).map(([state, n]): [Record<string, string>, number] => [{ state }, n])),
  });
  counterFrom(registry, {
    name: 'netcfg_relayer_patches_sent_total',
    help: 'PATCHes sent to each relayer since start.',
    labelNames: ['target'],
    series: () => each((t) => [[{}, t.patches_sent]]),
  });
  counterFrom(registry, {
    name: 'netcfg_relayer_findings_total',
    help: 'Findings opened on each relayer since start, by kind: drift (rpc_urls), stale (another field), missing, extra, failing.',
    labelNames: ['target', 'kind'],
    series: () =>
      each((t) =>
        Object.entries(t.findings_opened).map(([kind, n]): [Record<string, string>, number] => [{ kind }, n]),
      ),
  });
  gaugeFrom(registry, {
    name: 'netcfg_relayer_last_pass_timestamp_seconds',
    help: "Unix time of each relayer's last full pass (its list compared with the folder); no series before the first.",
    labelNames: ['target'],
    series: () => each((t) => [[{}, t.last_pass_at === null ? null : Date.parse(t.last_pass_at) / 1000]]),
  });
  gaugeFrom(registry, {
    name: 'netcfg_relayer_last_pass_age_seconds',
    help: "Seconds since each relayer's last full pass (its list compared with the folder); no series before the first.",
    labelNames: ['target'],
    series: () => each((t) => [[{}, ageSeconds(t.last_pass_at)]]),
  });
  const lease = relayers.lease?.bind(relayers);
  if (lease) {
    gaugeFrom(registry, {
      name: 'netcfg_relayer_lease_held',
      help: 'Whether this replica holds the relayer lease and speaks to the relayers now (1) or stands by (0).',
      labelNames: [],
      series: () => {
        const now = lease();
        return now === null ? [] : [[{}, now.holder === now.this_replica ? 1 : 0]];
      },
    });
  }
  return now;
}
