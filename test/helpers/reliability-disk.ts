/**
 * What is on disk, read independently of the server: every network file parsed with the same
 * parseNetworkFile the store uses (so "the index equals the disk" compares like with like), the
 * temp files a killed writer may leave, and fingerprints of a whole tree for canary checks.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { classifyPath, EXTENSIONS, relativePathOf, type NetworkId } from '../../src/store/files/layout.js';
import { parseNetworkFile } from '../../src/store/validation/network-file.js';
import { jsonOf } from '../../src/store/network-record.js';
import { OPEN_POLICY } from '../../src/store/validation/url-rules.js';
import { call } from './reliability-http.js';

export interface DiskNetwork {
  rel: string;
  etag: string;
  /** The served JSON of the network, as the list endpoint would show it. */
  json: string;
}

/** Valid networks on disk by id (`.yaml` wins over `.yml`), and the paths that are not valid. */
export function readFolderNetworks(root: string): { networks: Map<string, DiskNetwork>; invalid: string[] } {
  const networks = new Map<string, DiskNetwork>();
  const invalid: string[] = [];
  const families = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'));
  for (const family of families) {
    const ids = new Map<string, NetworkId>();
    for (const name of fs.readdirSync(path.join(root, family.name))) {
      const kind = classifyPath(`${family.name}/${name}`);
      if (kind.kind === 'network') ids.set(kind.id.id, kind.id);
    }
    for (const id of ids.values()) {
      // As the server does: the first of .yaml, .yml that exists is the source, valid or not.
      const [source, ...duplicates] = EXTENSIONS.map((ext) => relativePathOf(id, ext)).filter((rel) =>
        fs.existsSync(path.join(root, rel)),
      );
      invalid.push(...duplicates);
      if (source === undefined) continue;
      let text: string;
      try {
        text = fs.readFileSync(path.join(root, source), 'utf8');
      } catch {
        continue; // deleted while we looked
      }
      const outcome = parseNetworkFile(text, id, source, OPEN_POLICY);
      if (outcome.ok) networks.set(id.id, { rel: source, etag: outcome.record.etag, json: jsonOf(outcome.record) });
      else invalid.push(source);
    }
  }
  return { networks, invalid };
}

/** Every network the server lists, id -> JSON, walking all pages. */
export async function listAll(base: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let page = 1; ; page++) {
    const reply = await call(base, 'GET', `/api/v1/networks?per_page=100&page=${page}`);
    if (reply.status !== 200)
      throw new Error(`list page ${page} answered ${reply.status}: ${reply.text.slice(0, 200)}`);
    const body = JSON.parse(reply.text) as { data: Array<{ id: string }>; pagination: { total_pages: number } };
    for (const network of body.data) out.set(network.id, JSON.stringify(network));
    if (page >= body.pagination.total_pages) return out;
  }
}

/** Leftover temp files of atomic writes (`.<file>.<pid>.<hex>.tmp`), relative to `root`. */
export function tempFiles(root: string): string[] {
  const found: string[] = [];
  for (const family of safeList(root)) {
    for (const name of safeList(path.join(root, family))) if (/^\..*\.tmp$/.test(name)) found.push(`${family}/${name}`);
  }
  return found;
}

/** rel -> "type:size:mtime:sha256" for every entry under `dir` (links are not followed). */
export function fingerprintTree(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    const abs = path.join(dir, rel);
    const st = fs.lstatSync(abs);
    if (st.isDirectory()) {
      out.set(rel || '.', `dir:${st.mtimeMs}`);
      for (const name of fs.readdirSync(abs)) {
        const child = rel ? `${rel}/${name}` : name;
        if (!skip(child)) walk(child);
      }
    } else if (st.isSymbolicLink()) {
      out.set(rel, `link:${fs.readlinkSync(abs)}`);
    } else {
      const sha = createHash('sha256').update(fs.readFileSync(abs)).digest('hex');
      out.set(rel, `file:${st.size}:${st.mtimeMs}:${sha}`);
    }
  };
  walk('');
  return out;
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
