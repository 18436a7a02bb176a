/**
 * netcfg's networks as the relayer's loader takes them: one `{"networks": [...]}` per type, each
 * network flat (its own `type` and `network`, no `from`), sorted by name, holding only the fields
 * its type's struct has (relayer-types.ts) in the struct's order, with RPC URLs in their written
 * form. What the relayer would refuse is left out and said, one line each: a family it does not
 * know, a field its struct lacks or would not parse, a network without what its type requires.
 */
import { FIELDS, isRelayerType, kindProblem, REQUIRED, RELAYER_TYPES, type RelayerType } from './relayer-types.js';

export interface RelayerExport {
  /** One networks document per type that has networks, by type. */
  documents: Partial<Record<RelayerType, { networks: Array<Record<string, unknown>> }>>;
  /** What was left out, one sentence each, for stderr. */
  leftOut: string[];
}

/** Fields of the wire view that are the id's parts, not the file's. */
const DERIVED = new Set(['id', 'name', 'network_type']);

/** `networks`: netcfg's wire views (id, name, network_type, then the fields), rpc_urls as written. */
export function relayerExport(networks: Iterable<Record<string, unknown>>): RelayerExport {
  const byType = new Map<RelayerType, Array<Record<string, unknown>>>();
  const leftOut: string[] = [];
  for (const view of networks) {
    const [id, family, name] = [String(view.id), String(view.network_type), String(view.name)];
    if (!isRelayerType(family)) {
      leftOut.push(`${id}: left out; the relayer has no ${family} networks (it knows ${RELAYER_TYPES.join(', ')})`);
      continue;
    }
    const entry: Record<string, unknown> = { type: family, network: name };
    for (const [key, kind] of Object.entries(FIELDS[family])) {
      const value = view[key];
      if (value === undefined || value === null) continue;
      const bad = kindProblem(kind, value);
      if (bad)
        leftOut.push(
          `${id}: ${key} left out; the relayer would refuse it (${key}${bad.at.replace(/\//g, '.')} ${bad.message})`,
        );
      else entry[key] = value;
    }
    for (const key of Object.keys(view)) {
      if (!DERIVED.has(key) && !(key in FIELDS[family]))
        leftOut.push(`${id}: ${key} left out; the relayer's ${family} networks have no such field`);
    }
    const missing = REQUIRED[family].filter((key) => entry[key] === undefined || entry[key] === '');
    if (missing.length > 0) {
      leftOut.push(`${id}: left out; the relayer needs ${missing.join(', ')} on a ${family} network`);
      continue;
    }
    byType.set(family, [...(byType.get(family) ?? []), entry]);
  }
  const documents: RelayerExport['documents'] = {};
  for (const type of RELAYER_TYPES) {
    const list = byType.get(type);
    if (list) documents[type] = { networks: list.sort((a, b) => (String(a.network) < String(b.network) ? -1 : 1)) };
  }
  return { documents, leftOut };
}

/** Every type's networks in one document (`--out -`, the HTTP route), types in the relayer's order. */
export function oneDocument(exported: RelayerExport): { networks: Array<Record<string, unknown>> } {
  return { networks: RELAYER_TYPES.flatMap((type) => exported.documents[type]?.networks ?? []) };
}
