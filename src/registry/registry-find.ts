/**
 * Finding a chain in a registry: by chain id when given (ids are what the chain itself answers,
 * so they are the sure key), else by the network's name against each entry's shortName and name.
 * More than one match is never guessed between: the caller lists the candidates and writes nothing.
 */
import type { RegistryChain } from './registry-file.js';

export type Found =
  | { kind: 'found'; entry: RegistryChain }
  | { kind: 'ambiguous'; candidates: RegistryChain[] }
  | { kind: 'none'; looked: string };

/** A name as compared: lower case, every run of other characters than letters and digits one '-'. */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function findChain(chains: readonly RegistryChain[], by: { chainId?: number; name: string }): Found {
  if (by.chainId !== undefined) {
    const hits = chains.filter((c) => c.chainId === by.chainId);
    return oneOf(hits, `chain id ${by.chainId}`);
  }
  const wanted = slugOf(by.name);
  const byShort = chains.filter((c) => c.shortName !== undefined && slugOf(c.shortName) === wanted);
  if (byShort.length > 0) return oneOf(byShort, `shortName "${by.name}"`);
  return oneOf(
    chains.filter((c) => slugOf(c.name) === wanted),
    `shortName or name "${by.name}"`,
  );
}

function oneOf(hits: RegistryChain[], looked: string): Found {
  if (hits.length === 1) return { kind: 'found', entry: hits[0] as RegistryChain };
  if (hits.length === 0) return { kind: 'none', looked };
  return { kind: 'ambiguous', candidates: hits };
}

/** What the console's search box shows of an entry. */
export interface ChainMatch {
  chain_id: number;
  name: string;
  short_name: string | null;
  is_testnet: boolean;
}

/**
 * Up to `limit` entries matching `q`: an exact chain id first, then names and shortNames that
 * start with it, then those that hold it; the registry's order within each.
 */
export function searchChains(
  chains: readonly RegistryChain[],
  q: string,
  isTestnet: (c: RegistryChain) => boolean,
  limit = 20,
): ChainMatch[] {
  const text = q.trim().toLowerCase();
  if (text === '') return [];
  const rank = (c: RegistryChain): number => {
    if (String(c.chainId) === text) return 0;
    const names = [c.name, c.shortName ?? ''].map((n) => n.toLowerCase());
    if (names.some((n) => n.startsWith(text))) return 1;
    if (names.some((n) => n.includes(text))) return 2;
    return -1;
  };
  return chains
    .map((c, at) => ({ c, at, r: rank(c) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.at - b.at)
    .slice(0, limit)
    .map(({ c }) => ({ chain_id: c.chainId, name: c.name, short_name: c.shortName ?? null, is_testnet: isTestnet(c) }));
}
