/**
 * `netcfg import relayer <SRC> --out <DIR>`: the relayer's networks, read the way its loader reads
 * them (file_loading.rs), resolved (relayer/format/resolve.ts) and written as one netcfg file
 * each. All or nothing: anything the relayer or netcfg would refuse, or a file that differs from
 * what would be written (without --force), and not one byte is written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { networkYamlOf } from '../relayer/format/network-yaml.js';
import { readRelayerSource, type Problem } from '../relayer/format/relayer-source.js';
import { resolveNetworks, type EntryList } from '../relayer/format/resolve.js';
import {
  candidatesOf,
  parseNetworkId,
  relativePathOf,
  type NetworkId,
  parseNetworkFile,
  type UrlPolicy,
} from '../store/index.js';

export interface ImportResult {
  problems: Problem[];
  /** Files (relative to the output folder) that differ from what would be written: left alone without --force. */
  conflicts: string[];
  written: string[];
  unchanged: string[];
}

/** The relayer's default when config.json names no networks (NetworksSource::default). */
const RELAYER_DEFAULT_NETWORKS = './config/networks';

export function importRelayer(src: string, out: string, options: { force: boolean; policy: UrlPolicy }): ImportResult {
  const result: ImportResult = { problems: [], conflicts: [], written: [], unchanged: [] };
  const lists = readEntryLists(src, result.problems);
  const { networks, problems } = resolveNetworks(lists);
  result.problems.push(...problems);
  const files: Array<{ id: NetworkId; rel: string; text: string }> = [];
  for (const network of networks) {
    const id = parseNetworkId(`${network.type}:${network.name}`);
    if (!id) {
      result.problems.push({
        ...network.place,
        message: `"${network.name}" cannot be a netcfg network name (lower-case letters, digits, "-" and "_", at most 63)`,
      });
      continue;
    }
    const rel = relativePathOf(id, '.yaml');
    const text = networkYamlOf(network, network.place.file);
    const outcome = parseNetworkFile(text, id, rel, options.policy);
    if (!outcome.ok)
      for (const p of outcome.problems)
        result.problems.push({ ...network.place, message: `netcfg would refuse ${id.id}: ${p.message}` });
    else files.push({ id, rel, text });
  }
  if (result.problems.length > 0) return result;
  for (const { id, rel, text } of files) {
    const other = candidatesOf(id).find((c) => c.rel !== rel);
    const current = existsSync(path.join(out, rel)) ? readFileSync(path.join(out, rel), 'utf8') : null;
    if (other && existsSync(path.join(out, other.rel)))
      result.conflicts.push(`${rel} (${other.rel} holds the same network)`);
    else if (current === text) result.unchanged.push(rel);
    else if (current !== null && !options.force) result.conflicts.push(rel);
  }
  if (result.conflicts.length > 0) return result;
  const unchanged = new Set(result.unchanged);
  for (const { rel, text } of files) {
    if (unchanged.has(rel)) continue;
    const file = path.join(out, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.import.tmp`);
    writeFileSync(temp, text);
    renameSync(temp, file);
    result.written.push(rel);
  }
  return result;
}

/** The network lists SRC holds: a folder (its *.json, as the relayer scans it), a networks file, or a config.json. */
function readEntryLists(src: string, problems: Problem[]): EntryList[] {
  const refuse = (message: string): EntryList[] => (problems.push({ file: src, line: 1, column: 1, message }), []);
  let stat;
  try {
    stat = statSync(src);
  } catch {
    return refuse('does not exist');
  }
  if (stat.isDirectory()) return readFolder(src, problems);
  const source = readRelayerSource(src, readFileSync(src, 'utf8'));
  problems.push(...source.problems);
  if (source.json === undefined) return [];
  const json = source.json as Record<string, unknown> | null;
  const networks = typeof json === 'object' && json !== null && !Array.isArray(json) ? json.networks : undefined;
  if (Array.isArray(networks)) return [{ source, pointer: '/networks', entries: networks }];
  // A config.json names the folder its networks are in, relative to where the relayer runs (as here).
  if (typeof networks === 'string' && networks !== '') return readFolder(networks, problems);
  if (
    (networks === undefined || networks === null || networks === '') &&
    json !== null &&
    typeof json === 'object' &&
    'relayers' in json
  )
    return readFolder(RELAYER_DEFAULT_NETWORKS, problems);
  problems.push({
    ...source.at('/networks'),
    message:
      'holds no "networks" list (a networks file is {"networks": [...]}; a config.json names a folder or holds the list)',
  });
  return [];
}

function readFolder(dir: string, problems: Problem[]): EntryList[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter(
      (name) => path.extname(name).toLowerCase() === '.json' && statSync(path.join(dir, name)).isFile(),
    );
  } catch (err) {
    problems.push({
      file: dir,
      line: 1,
      column: 1,
      message: `is not a folder the relayer can read (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`,
    });
    return [];
  }
  if (names.length === 0)
    problems.push({ file: dir, line: 1, column: 1, message: 'contains no JSON configuration files' });
  return names.sort().flatMap((name) => {
    const file = path.join(dir, name);
    const source = readRelayerSource(file, readFileSync(file, 'utf8'));
    problems.push(...source.problems);
    if (source.json === undefined) return [];
    const networks = (source.json as Record<string, unknown> | null)?.networks;
    if (!Array.isArray(networks)) {
      problems.push({ ...source.at('/networks'), message: 'a networks file must be {"networks": [...]}' });
      return [];
    }
    return [{ source, pointer: '/networks', entries: networks }];
  });
}
