/**
 * What a relayer sync shows of one relayer (GET /api/v1/relayers, readiness, metrics, the console),
 * and the remedies it gives: true to the relayer's own loader (docs/configuration/storage.mdx and
 * src/bootstrap/config_processor.rs at v1.8.0), since its API changes rpc_urls and nothing else.
 */
import type { Finding, FindingKind } from './findings.js';

export type NetworkState = 'in_sync' | 'drifted' | 'stale' | 'missing' | 'failing';
/** standby: another replica holds the lease and speaks to the relayers; this one lists and sends nothing. */
export type TargetState = 'pending' | 'standby' | 'in_sync' | 'drifted' | 'stale' | 'missing' | 'failing';

export interface NetworkStatus {
  id: string;
  state: NetworkState;
  /** The fields that differ (drifted: rpc_urls, and any stale one; stale: those the relayer's API cannot change). */
  fields?: string[];
  /** What the relayer holds of those fields (its URLs redacted, a secret's value masked). */
  relayer?: unknown;
  /** What netcfg would have it hold, the same way shown. */
  netcfg?: unknown;
  /** Why it failed, or what to do (missing, stale). */
  error?: string;
}

export interface LastPass {
  started_at: string;
  ended_at: string;
  pages: number;
  bytes: number;
  networks_compared: number;
  error: string | null;
}

export interface TargetStatus {
  name: string;
  url: string;
  state: TargetState;
  /** When the state last changed. */
  state_since: string;
  /** RELAYER_SYNC_INTERVAL_MS: readiness counts a bad state as lasting past it. */
  interval_ms: number;
  self_heal: boolean;
  /** The globs of ids it takes (RELAYER_SYNC_FILE's `networks`); null: every network of its families. */
  scope: string[] | null;
  /** The last pass that listed the relayer and compared it. */
  last_pass_at: string | null;
  last_pass: LastPass | null;
  last_error: string | null;
  counts: Record<NetworkState, number> & { extra: number };
  /** When `counts` were last true (a failing relayer's counts are as of its last good pass). */
  counts_at: string | null;
  /** PATCHes this target was sent since start. */
  patches_sent: number;
  /** Findings opened since start, by kind (the metrics count them). */
  findings_opened: Record<FindingKind, number>;
  /** Every network not in sync, and why. */
  networks: NetworkStatus[];
  /** Networks only the relayer has (left alone). */
  extra: string[];
  /** The lease, when replicas share the relayers (whoever speaks to them). */
  lease?: { holder: string | null; this_replica: string; expires_at: string | null };
}

/** GET /api/v1/relayers/{name}: the status and its findings, newest first. */
export interface TargetDetail extends TargetStatus {
  findings: Finding[];
}

/** What takes effect only when the relayer loads its files again, said for each storage it may use. */
export function reloadRemedy(relayer: string): string {
  return (
    `its API cannot change this; it takes effect when ${relayer} loads its files again (netcfg export relayer writes them): ` +
    'with in-memory storage, at its next restart; with Redis storage, only at a restart with RESET_STORAGE_ON_START=true, ' +
    'which first deletes all its stored data (relayers, transactions, signers, notifications, networks, plugins, API keys ' +
    'and transaction counters) and loads everything from its config files again'
  );
}
