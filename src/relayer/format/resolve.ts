/**
 * The relayer's networks as it loads them: every entry checked against its type's struct, names
 * unique per type, and `from` resolved as collection.rs and inheritance.rs resolve it (a parent of
 * the same type, resolved first; lists of MERGED_LISTS extended, every other field the child's,
 * else the parent's), then checked as evm.rs and common.rs `validate` check a resolved network.
 * Everything the relayer would refuse is a Problem at the place in the JSON that causes it.
 */
import { FIELDS, isRelayerType, kindProblem, MERGED_LISTS, REQUIRED, type RelayerType } from './relayer-types.js';
import type { Place, Problem, RelayerSource } from './relayer-source.js';

/** A list of network entries in one source, at `pointer` (`/networks`). */
export interface EntryList {
  source: RelayerSource;
  pointer: string;
  entries: unknown[];
}

export interface ResolvedNetwork {
  type: RelayerType;
  name: string;
  /** Its fields after inheritance, in the struct's order; no `type`, `network` or `from`. */
  fields: Record<string, unknown>;
  place: Place;
  /** The network it names in `from`, if any. */
  parent: string | null;
}

interface Entry {
  type: RelayerType;
  name: string;
  from: string | null;
  own: Record<string, unknown>;
  place: Place;
}

export function resolveNetworks(lists: EntryList[]): { networks: ResolvedNetwork[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const byKey = new Map<string, Entry>();
  /** Networks refused on their own: what inherits from them says nothing more. */
  const refused = new Set<string>();
  for (const { source, pointer, entries } of lists) {
    entries.forEach((raw, i) => {
      const entry = checkEntry(raw, `${pointer}/${i}`, source, problems);
      if (!entry) return void refused.add(keyOf(raw));
      const key = `${entry.type}:${entry.name}`;
      const first = byKey.get(key);
      if (first)
        problems.push({
          ...entry.place,
          message: `${entry.type} network '${entry.name}' is defined twice (first at ${where(first.place)}); names are unique per type`,
        });
      else byKey.set(key, entry);
    });
  }
  const resolved = new Map<string, Record<string, unknown> | null>();
  const resolve = (entry: Entry, path: string[]): Record<string, unknown> | null => {
    const key = `${entry.type}:${entry.name}`;
    if (resolved.has(key)) return resolved.get(key) ?? null;
    let fields: Record<string, unknown> | null = entry.own;
    if (entry.from !== null) {
      const parent = byKey.get(`${entry.type}:${entry.from}`);
      if (entry.from === entry.name) fail(entry, `network '${entry.name}' cannot inherit from itself`);
      else if (path.includes(key))
        fail(entry, `circular inheritance: ${[...path, key].map((k) => k.slice(k.indexOf(':') + 1)).join(' -> ')}`);
      else if (!parent && !refused.has(`${entry.type}:${entry.from}`)) fail(entry, missingParent(entry, byKey));
      const parentFields =
        parent && entry.from !== entry.name && !path.includes(key) ? resolve(parent, [...path, key]) : null;
      fields = parentFields ? merge(entry.type, entry.own, parentFields) : null;
    }
    resolved.set(key, fields);
    return fields;
  };
  const fail = (entry: Entry, message: string): void => void problems.push({ ...entry.place, message });
  const networks: ResolvedNetwork[] = [];
  for (const entry of byKey.values()) {
    const fields = resolve(entry, []);
    if (!fields) continue;
    const missing = [...(entry.from === null ? ['rpc_urls'] : []), ...REQUIRED[entry.type]].filter((f) =>
      isEmpty(fields[f]),
    );
    if (missing.length > 0) {
      fail(
        entry,
        `${entry.type} network '${entry.name}' has no ${missing.join(', ')}${entry.from === null ? '' : ' (nor does a network it inherits from)'}`,
      );
      continue;
    }
    networks.push({ type: entry.type, name: entry.name, fields, place: entry.place, parent: entry.from });
  }
  return { networks, problems };
}

/** One entry checked against its type's struct; null (and its problems noted) when the relayer would refuse it. */
function checkEntry(raw: unknown, pointer: string, source: RelayerSource, problems: Problem[]): Entry | null {
  const problem = (at: string, message: string): null => (
    problems.push({ ...source.at(`${pointer}${at}`), message }),
    null
  );
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return problem('', 'a network must be an object with type and network');
  const { type, network, from, ...rest } = raw as Record<string, unknown>;
  if (!isRelayerType(type))
    return problem(
      type === undefined ? '' : '/type',
      `type must be one of evm, solana, stellar (it is ${JSON.stringify(type) ?? 'missing'})`,
    );
  if (typeof network !== 'string' || network === '')
    return problem(network === undefined ? '' : '/network', "network must be a non-empty string: the network's name");
  if (from !== undefined && from !== null && typeof from !== 'string')
    return problem('/from', 'from must be the name of a network of the same type');
  const own: Record<string, unknown> = {};
  let ok = true;
  for (const [key, value] of Object.entries(rest)) {
    const kind = FIELDS[type][key];
    if (!kind)
      ok =
        problem(`/${key}`, `${key} is not a field of the relayer's ${type} networks (it refuses unknown fields)`) ??
        false;
    else if (value !== null) {
      const bad = kindProblem(kind, value) ?? explorerProblem(key, value);
      if (bad) ok = problem(`/${key}${bad.at}`, `${key}${bad.at.replace(/\//g, '.')} ${bad.message}`) ?? false;
      else own[key] = value;
    }
  }
  return ok
    ? { type, name: network, from: typeof from === 'string' ? from : null, own, place: source.at(pointer) }
    : null;
}

/** common.rs: every explorer URL must parse as a URL. */
function explorerProblem(key: string, value: unknown): { at: string; message: string } | null {
  if (key !== 'explorer_urls') return null;
  const bad = (value as string[]).findIndex((url) => !URL.canParse(url));
  return bad < 0 ? null : { at: `/${bad}`, message: 'is not a URL' };
}

/** The child's fields over its resolved parent's, in the struct's order. */
function merge(
  type: RelayerType,
  child: Record<string, unknown>,
  parent: Record<string, unknown>,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(FIELDS[type])) {
    const [mine, theirs] = [child[key], parent[key]];
    let value = mine ?? theirs;
    if (MERGED_LISTS[type].includes(key) && Array.isArray(mine) && Array.isArray(theirs))
      value = [...theirs, ...mine.filter((item) => !theirs.includes(item))];
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}

function missingParent(entry: Entry, byKey: Map<string, Entry>): string {
  const other = [...byKey.values()].find((e) => e.name === entry.from && e.type !== entry.type);
  if (other)
    return `${entry.type} network '${entry.name}' inherits from '${entry.from}', which is a ${other.type} network; from names a network of the same type`;
  return `${entry.type} network '${entry.name}' inherits from non-existent network '${entry.from}'`;
}

function keyOf(raw: unknown): string {
  const { type, network } = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  return `${String(type)}:${String(network)}`;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

function where(place: Place): string {
  return `${place.file}:${place.line}:${place.column}`;
}
