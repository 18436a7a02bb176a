/**
 * The folder `netcfg export relayer --out DIR` writes into, as the relayer sees it: it loads every
 * `*.json` directly in DIR (a file, or a link to one; extension in any case; file_loading.rs) and
 * refuses to start when a network is defined twice. So a `*.json` that netcfg did not write is a
 * conflict, whatever its name: the relayer itself ships an `evm.json`, so a name says nothing.
 * netcfg's own files are the ones its manifest (`.netcfg-export`, which the relayer does not load)
 * lists with the SHA-256 of the bytes it wrote; one edited since is not netcfg's any more.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const MANIFEST = '.netcfg-export';

export interface ExportPlan {
  dir: string;
  /** The files to write, by name, with their text. */
  files: Map<string, string>;
  /** The `*.json` files the relayer would load beside netcfg's, and why each is not netcfg's. */
  foreign: Array<{ name: string; why: string }>;
  /** Set when `dir` exists but is not a folder: nothing can be written there. */
  notFolder?: true;
}

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** True when the relayer would load `name` in `dir`: Rust's `Path::extension` is `json` in any case, and it is a file. */
export function relayerLoads(dir: string, name: string): boolean {
  if (!/\.json$/i.test(name) || name.length === '.json'.length) return false;
  try {
    return statSync(path.join(dir, name)).isFile();
  } catch {
    return false; // a dangling link: the relayer skips it too
  }
}

/** The files a previous export wrote, by name, with their SHA-256; none when there is no readable manifest. */
function manifestOf(dir: string): Map<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as { files?: Record<string, unknown> };
    return new Map(Object.entries(parsed.files ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return new Map();
  }
}

/**
 * What writing `documents` (the text of each `<type>.json`) into `dir` would do. A file of netcfg's
 * whose type has no network now is written `{"networks": []}`, so the relayer loads none of its old ones.
 */
export function planExport(dir: string, documents: Map<string, string>): ExportPlan {
  const files = new Map(documents);
  const foreign: ExportPlan['foreign'] = [];
  if (!existsSync(dir)) return { dir, files, foreign };
  if (!statSync(dir).isDirectory()) return { dir, files, foreign, notFolder: true };
  const manifest = manifestOf(dir);
  for (const name of readdirSync(dir).sort()) {
    if (!relayerLoads(dir, name)) continue;
    const recorded = manifest.get(name);
    if (recorded !== undefined && recorded === sha256(readFileSync(path.join(dir, name)))) {
      if (!files.has(name)) files.set(name, `${JSON.stringify({ networks: [] }, null, 2)}\n`);
      continue;
    }
    foreign.push({
      name,
      why: recorded === undefined ? 'netcfg did not write it' : 'it changed since netcfg wrote it',
    });
  }
  return { dir, files, foreign };
}

/** `name.replaced-by-netcfg-<UTC time>`, numbered when taken: a name the relayer does not load, next to the original. */
function asideName(dir: string, name: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const base = `${name}.replaced-by-netcfg-${stamp}`;
  let candidate = base;
  for (let n = 1; existsSync(path.join(dir, candidate)); n++) candidate = `${base}.${n}`;
  return candidate;
}

export interface Committed {
  written: string[];
  renamed: Array<{ from: string; to: string }>;
}

/**
 * Carries out a plan: every file (and the manifest) to a temp name in the folder first, so a full disk
 * writes nothing; then the foreign files are renamed aside (the caller allowed it), then the temp names
 * take their places. The manifest goes last: until it does, the new files count as foreign (refused, never lost).
 */
export function commitExport(plan: ExportPlan, now = new Date()): Committed {
  const { dir } = plan;
  mkdirSync(dir, { recursive: true });
  const manifest = {
    written_by: 'netcfg export relayer',
    files: Object.fromEntries([...plan.files].map(([name, text]) => [name, sha256(text)])),
  };
  const all: Array<[string, string]> = [...plan.files, [MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`]];
  const temps: Array<[string, string]> = [];
  try {
    for (const [name, text] of all) {
      const temp = path.join(dir, `.${name}.${process.pid}.tmp`);
      temps.push([temp, name]);
      writeFileSync(temp, text);
    }
  } catch (err) {
    for (const [temp] of temps) rmSync(temp, { force: true });
    throw err;
  }
  const renamed = plan.foreign.map(({ name }) => ({ from: name, to: asideName(dir, name, now) }));
  for (const { from, to } of renamed) renameSync(path.join(dir, from), path.join(dir, to));
  for (const [temp, name] of temps) renameSync(temp, path.join(dir, name));
  return { written: [...plan.files.keys()].map((name) => path.join(dir, name)), renamed };
}
