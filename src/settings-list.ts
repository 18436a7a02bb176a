/**
 * A YAML file that is a list of entries of known settings: API_TOKENS_FILE's tokens and
 * RELAYER_SYNC_FILE's relayers. This reads the shape (the file parses, the list is there, each
 * entry is a mapping of settings netcfg knows) and gives each setting's value with its place; the
 * callers judge the values. Every problem is data with line and column.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';

export interface Located {
  line: number;
  column: number;
  message: string;
}

export interface SettingsEntry {
  node: Node;
  /** A setting's node (where a problem with it is) and its value as plain data; undefined when absent. */
  get(key: string): { node: Node | null; value: unknown };
  /** Whether it holds a setting netcfg does not know (already among the problems). */
  hasUnknown: boolean;
}

export interface SettingsSpec {
  /** The top-level key holding the list. */
  list: string;
  known: readonly string[];
  /** Whether an empty list is a problem. */
  nonEmpty: boolean;
  /** Said when the list is missing (or empty, with `nonEmpty`). */
  noList: string;
  /** Said at an entry that is not a mapping. */
  notAnEntry: string;
  /** Said at a key that is not a known setting. */
  unknown: (key: string) => string;
}

export function readSettingsList(
  text: string,
  spec: SettingsSpec,
): { entries: SettingsEntry[]; problems: Located[]; at(node: Node | null | undefined, message: string): Located } {
  const lines = new LineCounter();
  // YAML 1.2's core schema (yaml's default): `2027-06-30` stays a string, not a timestamp.
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const at = (node: Node | null | undefined, message: string): Located => {
    const { line, col } = lines.linePos(node?.range?.[0] ?? 0);
    return { line, column: col, message };
  };
  const problems: Located[] = doc.errors.map((e) => ({
    line: e.linePos?.[0].line ?? 1,
    column: e.linePos?.[0].col ?? 1,
    message: e.message.split('\n')[0] ?? e.message,
  }));
  if (problems.length > 0) return { entries: [], problems, at };
  const list = isMap(doc.contents) ? doc.contents.get(spec.list, true) : null;
  if (!isSeq(list) || (spec.nonEmpty && list.items.length === 0))
    return { entries: [], problems: [at(doc.contents as Node | null, spec.noList)], at };
  const entries: SettingsEntry[] = [];
  for (const item of list.items as Node[]) {
    if (!isMap(item)) {
      problems.push(at(item, spec.notAnEntry));
      continue;
    }
    const unknown = item.items.filter(
      (pair) => !spec.known.includes(String((pair.key as { value?: unknown } | null)?.value)),
    );
    for (const pair of unknown)
      problems.push(at(pair.key as Node, spec.unknown(String((pair.key as { value?: unknown } | null)?.value))));
    entries.push({ node: item, get: (key) => settingOf(item, key), hasUnknown: unknown.length > 0 });
  }
  return { entries, problems, at };
}

function settingOf(item: YAMLMap, key: string): { node: Node | null; value: unknown } {
  const node = item.get(key, true) as Node | undefined;
  if (node === undefined) return { node: null, value: undefined };
  return { node, value: isScalar(node) ? node.value : (node as { toJSON(): unknown }).toJSON() };
}
