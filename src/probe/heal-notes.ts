/**
 * The self-healing's notes: each disable or restore is a commit by the prober carrying a
 * `Netcfg-Rpc-Auto` trailer that says what it did (the weight it took away, the URL's
 * fingerprint). Written by auto-heal.ts, read back here from the store's history (while serving)
 * or from the folder's git log (`netcfg validate --probe`); git only hands over the trailer's text.
 */
import type { TrailedCommit } from '../store/index.js';

/** The trailer key of the self-healing's notes. */
export const RPC_AUTO_TRAILER = 'Netcfg-Rpc-Auto';

/** The actor the self-healing writes as. */
export const PROBER = { kind: 'system', name: 'rpc-prober' } as const;

/** One note (the trailer's value) and its commit's date. */
export interface HealNote {
  at: string;
  text: string;
}

/** The trailer line of a note, for a commit's message. */
export function healTrailer(text: string): string {
  return `${RPC_AUTO_TRAILER}: ${text}`;
}

/** The notes of commits (newest first), in their order. */
export function healNotesOf(commits: ReadonlyArray<{ date: string; trailers?: Record<string, string[]> }>): HealNote[] {
  return commits.flatMap((commit) =>
    (commit.trailers?.[RPC_AUTO_TRAILER] ?? []).map((text) => ({ at: commit.date, text })),
  );
}

/** `validate --probe`: the notes of every file of a folder's whole history (by path from the folder), one git log. */
export function folderHealNotes(byFile: Map<string, TrailedCommit[]>): Map<string, HealNote[]> {
  return new Map([...byFile].map(([rel, commits]) => [rel, healNotesOf(commits)]));
}
