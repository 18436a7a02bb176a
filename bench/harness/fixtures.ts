/**
 * Fixture folders on disk: bench/fixtures/net-<N>/<family>/<name>.yaml for N networks, plus the same
 * 1,000 networks as one db.json for json-server. Generated once and reused while the generator is
 * unchanged (a hidden manifest records its version: netcfg ignores dot-files). Benchmarks that
 * write (PATCH, edits on disk, git) work on copies in bench/.tmp/, never on these.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAMILIES, network } from './network-data.js';

export const BENCH_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const PROJECT_DIR = path.dirname(BENCH_DIR);
export const FIXTURES_DIR = path.join(BENCH_DIR, 'fixtures');
export const TMP_DIR = path.join(BENCH_DIR, '.tmp');

/** Bump when network-data.ts changes what it generates, so old fixtures are rebuilt. */
const GENERATOR_VERSION = 4;
const MANIFEST = '.manifest.json';

export function fixtureDir(count: number): string {
  return path.join(FIXTURES_DIR, `net-${count}`);
}

export function dbJsonPath(count: number): string {
  return path.join(FIXTURES_DIR, `db-${count}.json`);
}

function upToDate(dir: string, count: number): boolean {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as { version?: number; count?: number };
    return manifest.version === GENERATOR_VERSION && manifest.count === count;
  } catch {
    return false;
  }
}

/** Writes the folder of `count` networks unless an up-to-date one is there. Returns true if written. */
export function ensureFixture(count: number): boolean {
  const dir = fixtureDir(count);
  if (upToDate(dir, count)) return false;
  rmSync(dir, { recursive: true, force: true });
  for (const family of FAMILIES) mkdirSync(path.join(dir, family), { recursive: true });
  for (let n = 0; n < count; n++) {
    const net = network(n);
    writeFileSync(path.join(dir, net.rel), net.yaml);
  }
  // The manifest goes last: a run interrupted half-way leaves no manifest and is redone.
  writeFileSync(path.join(dir, MANIFEST), JSON.stringify({ version: GENERATOR_VERSION, count }));
  return true;
}

/** json-server's database: `{"networks": [wire objects]}`, the same data the folder holds. */
export function ensureDbJson(count: number): string {
  const file = dbJsonPath(count);
  const stamp = `${file}.version`;
  if (existsSync(file) && existsSync(stamp) && readFileSync(stamp, 'utf8') === String(GENERATOR_VERSION)) return file;
  // In id order, as netcfg pages them: json-server pages in the order of the file.
  const networks = [];
  for (let n = 0; n < count; n++) networks.push(network(n));
  networks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  writeFileSync(file, JSON.stringify({ networks: networks.map((n) => n.wire) }, null, 2));
  writeFileSync(stamp, String(GENERATOR_VERSION));
  return file;
}

/**
 * Reads every file of a fixture folder once, so the next start finds them in the page cache. On
 * these VMs the cache lets go of files within seconds (measured: reading 10,000 network files took
 * 65 ms, and 785 ms again 20 s later), so without this a start-up row measured the disk as much as
 * the process, and whichever start ran first in a round paid for the others.
 */
export function warmFiles(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) warmFiles(full);
    else readFileSync(full);
  }
}

/** A fresh writable copy under bench/.tmp/ of a fixture file or folder. */
export function scratchCopy(source: string, name: string): string {
  const target = path.join(TMP_DIR, name);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(TMP_DIR, { recursive: true });
  cpSync(source, target, { recursive: true });
  return target;
}

/** Ids of the networks 0..count-1, sorted as netcfg pages them. */
export function sortedIds(count: number): string[] {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) ids.push(network(n).id);
  return ids.sort();
}
