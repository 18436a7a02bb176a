/**
 * The self-healing's records: each disable or restore is a commit by the prober carrying a
 * `Netcfg-Rpc-Auto` trailer that says what it did (the weight it took away, the URL's
 * fingerprint). Written by auto-heal.ts, read back here from the store's history (while serving)
 * or from the folder's git log (`netcfg validate --probe`); git only hands over the trailer's text.
 */
import type { TrailedCommit } from '../store/index.js';

/** The trailer key of the self-healing's records. */
export const RPC_AUTO_TRAILER = 'Netcfg-Rpc-Auto';

/** The actor the self-healing writes as. */
export const PROBER = { kind: 'system', name: 'rpc-prober' } as const;

/** One record (the trailer's value) and its commit's date. */
export interface HealRecord {
  at: string;
  record: string;
}

/** The trailer line of a record, for a commit's note. */
export function healTrailer(record: string): string {
  return `${RPC_AUTO_TRAILER}: ${record}`;
}

/** The records of commits (newest first), in their order. */
export function healRecordsOf(
  commits: ReadonlyArray<{ date: string; trailers?: Record<string, string[]> }>,
): HealRecord[] {
  return commits.flatMap((commit) =>
    (commit.trailers?.[RPC_AUTO_TRAILER] ?? []).map((record) => ({ at: commit.date, record })),
  );
}

/** `validate --probe`: the records of every file of a folder's whole history (by path from the folder), one git log. */
export function folderHealRecords(byFile: Map<string, TrailedCommit[]>): Map<string, HealRecord[]> {
  return new Map([...byFile].map(([rel, commits]) => [rel, healRecordsOf(commits)]));
}
