/**
 * A registry entry turned into a draft evm network, and the rules a candidate RPC URL must meet
 * before anyone asks it anything. The rules are netcfg's decisions for a file an operator will
 * serve to relayers: see docs/add.md, where each is said once.
 */
import { checkUrl, type UrlPolicy } from '../store/index.js';
import type { RegistryChain } from './registry-file.js';

/** Words that make an entry a test network beyond doubt when its name or title holds one. */
const TESTNET_WORDS = /\b(testnet|devnet|sepolia|goerli|holesky|hoodi)\b/i;

/** required_confirmations when --confirmations (or the body) does not say: a test network's reorgs cost nothing. */
export const DEFAULT_CONFIRMATIONS = { testnet: 1, other: 12 } as const;

/** Our rule: a test network when its name or title says so; nothing else (faucets, slip44) is proof. */
export function isTestnetEntry(entry: RegistryChain): boolean {
  return TESTNET_WORDS.test(entry.name) || TESTNET_WORDS.test(entry.title ?? '');
}

/** The evm fields the registry fills: chain_id, symbol, explorer_urls, and is_testnet only when true. */
export function draftFields(entry: RegistryChain): Record<string, unknown> {
  const fields: Record<string, unknown> = { chain_id: entry.chainId };
  const symbol = entry.nativeCurrency?.symbol?.trim();
  if (symbol) fields.symbol = symbol.slice(0, 32);
  const explorers = [
    ...new Set((entry.explorers ?? []).map((x) => x.url ?? '').filter((u) => /^https:\/\/\S+$/i.test(u))),
  ];
  if (explorers.length > 0) fields.explorer_urls = explorers;
  if (isTestnetEntry(entry)) fields.is_testnet = true;
  return fields;
}

/** A candidate's verdict before probing: null when it may be asked, else why it is refused. */
export interface Screened {
  url: string;
  refusal: string | null;
}

/** A URL as compared for duplicates: host lower case, no trailing slash. */
function sameKey(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  } catch {
    return url.trim();
  }
}

/** Each URL with why it is refused, in the order given: templates, websockets, http, duplicates, netcfg's URL rules. */
export function screenUrls(urls: readonly string[], policy: UrlPolicy, allowHttp: boolean): Screened[] {
  const seen = new Map<string, string>();
  return urls.map((raw) => {
    const url = raw.trim();
    const refusal = refusalOf(url, policy, allowHttp, seen);
    if (refusal === null) seen.set(sameKey(url), url);
    return { url, refusal };
  });
}

function refusalOf(url: string, policy: UrlPolicy, allowHttp: boolean, seen: Map<string, string>): string | null {
  if (/\$\{|\{\{|%7B/i.test(url)) return 'holds a template (such as ${API_KEY}): it needs a key netcfg does not have';
  if (/^wss?:\/\//i.test(url)) return 'is a websocket URL; rpc_urls are http(s) endpoints';
  if (/^http:\/\//i.test(url) && !allowHttp) return 'is plain http://; only https:// is taken (--allow-http takes it)';
  if (!/^https?:\/\//i.test(url)) return 'is not an http(s) URL';
  const first = seen.get(sameKey(url));
  if (first !== undefined) return `is a duplicate of ${first}`;
  const problem = checkUrl(url, policy);
  return problem === null ? null : `fails netcfg's URL rules: it ${problem}`;
}
