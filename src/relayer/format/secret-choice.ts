/**
 * Which networks an export to the relayer's files takes, given their secret references. Relayer v1.8
 * cannot read a `{type: env, value}` reference (its open PR #517 can), and a value written out is a
 * key in a file: neither is a safe default, so by default a network holding a reference is left out
 * and named with the two ways to include it. The CLI and the route share this; each names its own
 * flags in the sentences (`how`).
 */
import { relayerExport, type RelayerExport } from './export.js';
import { writtenNetworkOf, type NetworkRecord } from '../../store/index.js';

/** `leave-out` (default), `resolve` (each reference's value in its place) or `keep` (the references). */
export type SecretChoice = 'leave-out' | 'resolve' | 'keep';

/** How the caller spells the two ways to include a network with references: CLI flags or query parameters. */
export interface ChoiceWording {
  resolve: string;
  keep: string;
}

export const CLI_WORDING: ChoiceWording = { resolve: '--resolve-secrets', keep: '--keep-references' };
export const ROUTE_WORDING: ChoiceWording = { resolve: 'resolve_secrets=true', keep: 'keep_references=true' };

/** The sentence naming a network left out for its references, and how to include it. */
export function referencesLeftOut(what: string, names: readonly string[], how: ChoiceWording, unset = false): string {
  const vars = [...new Set(names)].join(', ');
  const state = unset ? `, not set in netcfg's environment (set it, then ` : ' (';
  return (
    `${what}: left out; its rpc_urls hold secret references to ${vars}${state}${how.resolve} writes their values for relayer v1.8, ` +
    `${how.keep} keeps the references for a relayer built with env references, its PR #517)`
  );
}

/** The export of `records` (sorted by id by the caller) under `choice`; what was left out, one sentence each. */
export function exportNetworks(
  records: readonly NetworkRecord[],
  choice: SecretChoice,
  how: ChoiceWording,
): RelayerExport {
  const leftOut: string[] = [];
  const taken: NetworkRecord[] = [];
  for (const record of records) {
    if (choice === 'leave-out' && record.secrets !== undefined)
      leftOut.push(
        referencesLeftOut(
          record.id,
          record.secrets.map((s) => s.name),
          how,
        ),
      );
    else taken.push(record);
  }
  const exported = relayerExport(taken.map((r) => writtenNetworkOf(r, choice === 'resolve')));
  // In id order, one network's sentences together, whatever left it out.
  return { documents: exported.documents, leftOut: [...leftOut, ...exported.leftOut].sort() };
}

/** The ids (or file paths) the sentences of `leftOut` name: each starts with one, then `: `. */
export function leftOutNames(leftOut: readonly string[]): string[] {
  return [...new Set(leftOut.map((line) => line.slice(0, line.indexOf(': '))))];
}
