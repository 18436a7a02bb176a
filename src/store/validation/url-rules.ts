/**
 * Rules for RPC URLs that a JSON Schema cannot express: the URL must really parse, appear once,
 * at least one endpoint must be enabled, and (optionally) it must not point at internal
 * infrastructure. The same rules run on PATCH bodies and on files read from disk.
 */
import { isIP } from 'node:net';
import type { ErrorDetail } from '../../errors.js';
import { describePointer } from './schema-errors.js';
import type { SecretLookup } from './secret-refs.js';

export const MAX_URL_LENGTH = 2048;

export interface UrlPolicy {
  /** RPC_BLOCK_PRIVATE_IPS: refuse localhost, loopback, private, link-local and metadata hosts (IPv6 forms of them too). */
  blockPrivate: boolean;
  /** RPC_ALLOWED_HOSTS: when non-empty, only these host names (lower case) are accepted. */
  allowedHosts: readonly string[];
  /** Where `{type: env, value: NAME}` references resolve from (secret-refs.ts); absent: none is set. */
  secrets?: SecretLookup;
}

export const OPEN_POLICY: UrlPolicy = { blockPrivate: false, allowedHosts: [] };

export interface RpcUrl {
  url: string;
  weight: number;
}

/** A plain string means weight 100. Assumes the entry already passed the schema. */
export function normaliseEntry(entry: unknown): RpcUrl {
  if (typeof entry === 'string') return { url: entry, weight: 100 };
  const { url, weight } = entry as RpcUrl;
  return { url, weight };
}

/** A string, or an object whose url is a string and weight an integer: the shapes rules can judge. */
function wellFormed(raw: unknown): boolean {
  if (typeof raw === 'string') return true;
  if (typeof raw !== 'object' || raw === null) return false;
  const { url, weight } = raw as Record<string, unknown>;
  return typeof url === 'string' && Number.isInteger(weight) && (weight as number) >= 0 && (weight as number) <= 100;
}

/**
 * Checks an `rpc_urls` array; `base` is its JSON Pointer (`/rpc_urls`). Entries of the wrong shape
 * are skipped (the schema reports them), so one request gets every problem at once.
 */
export function checkRpcUrls(entries: readonly unknown[], base: string, policy: UrlPolicy): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  let enabled = 0;
  let judged = 0;
  entries.forEach((raw, i) => {
    if (!wellFormed(raw)) return;
    judged++;
    const entry = normaliseEntry(raw);
    const pointer = typeof raw === 'string' ? `${base}/${i}` : `${base}/${i}/url`;
    if (entry.weight > 0) enabled++;
    const problem = checkUrl(entry.url, policy);
    if (problem) {
      problems.push({ pointer, message: `${describePointer(pointer)} ${problem}` });
      return;
    }
    const key = new URL(entry.url).href;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({
        pointer,
        message: `${describePointer(pointer)} repeats ${describePointer(`${base}/${first}`)}; list each URL once.`,
      });
    } else {
      seen.set(key, i);
    }
  });
  if (entries.length > 0 && judged === entries.length && enabled === 0) {
    problems.push({
      pointer: base,
      message: `${describePointer(base)} must have at least one entry with a weight above 0; all are disabled.`,
    });
  }
  return problems;
}

/** Returns what is wrong with one URL (a sentence fragment), or null. */
export function checkUrl(url: string, policy: UrlPolicy): string | null {
  if (url.length > MAX_URL_LENGTH) return `is longer than ${MAX_URL_LENGTH} characters.`;
  if (/\s/.test(url)) return 'must not contain spaces or other whitespace.';
  const hidden = HIDDEN.exec(url);
  if (hidden)
    return (
      `must not contain control characters, invisible formatting characters or lone UTF-16 surrogates; ` +
      `it holds ${codePointOf(hidden[0])} at character ${hidden.index + 1}.`
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid absolute URL.';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must use http:// or https://.';
  if (parsed.hostname === '') return 'must name a host.';
  // `localhost.` is `localhost`: drop the root label's dot before comparing names.
  const host = parsed.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (policy.allowedHosts.length > 0 && !policy.allowedHosts.includes(host)) {
    return `points to "${host}", which is not in RPC_ALLOWED_HOSTS.`;
  }
  if (policy.blockPrivate && isInternalHost(host)) {
    return `points to "${host}", an internal address; RPC_BLOCK_PRIVATE_IPS forbids it.`;
  }
  return null;
}

/**
 * Control characters (C0, DEL, C1: NUL, BEL, a terminal's ESC), formatting characters that hide or
 * reorder text (zero-width, bidi) and lone surrogates: URL parsing would quietly percent-encode or
 * replace them, so the file would hold one URL and the endpoint be asked another, and a terminal or
 * page that shows the URL would act on them.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}]/u;

function codePointOf(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

/**
 * Literal addresses and well-known names only: a public name that resolves to a private address
 * is not caught here (that needs resolution at connect time, by whoever calls the RPC).
 */
export function isInternalHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost') || METADATA_HOSTS.has(host)) return true;
  const family = isIP(host);
  if (family === 4) return isInternalV4(host);
  if (family === 6) return isInternalV6(host);
  return false;
}

function isInternalV4(ip: string): boolean {
  const [a = 0, b = 0] = ip.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) || // link-local, incl. 169.254.169.254 cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    a >= 224 // multicast and reserved
  );
}

/**
 * IPv6: a form that carries an IPv4 address (mapped, compatible, NAT64's 64:ff9b::/96, 6to4) is as
 * internal as that address, since that is where the packets end up; anything outside global unicast
 * (2000::/3) is internal (loopback, unspecified, unique-local, link-local, site-local, multicast,
 * local-use NAT64 64:ff9b:1::/48, discard), and so are the IETF's special blocks inside it:
 * 2001::/23 (Teredo 2001::/32, refused whole because a relay delivers it to the IPv4 address hidden
 * in its last 32 bits, which may be internal; benchmarking; ORCHID) and documentation.
 */
function isInternalV6(ip: string): boolean {
  const g = groupsOf(ip);
  const [g0 = 0, g1 = 0, g2 = 0, , , g5 = 0, g6 = 0, g7 = 0] = g;
  const leadingZeros = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  if (leadingZeros(5) && (g5 === 0xffff || g5 === 0)) return isInternalV4(v4Of(g6, g7)); // ::ffff:a.b.c.d, ::a.b.c.d (:: and ::1 too)
  if (g0 === 0x64 && g1 === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isInternalV4(v4Of(g6, g7));
  if (g0 === 0x2002) return isInternalV4(v4Of(g1, g2));
  if (g0 < 0x2000 || g0 >= 0x4000) return true;
  return (g0 === 0x2001 && (g1 < 0x200 || g1 === 0xdb8)) || (g0 === 0x3fff && g1 < 0x1000);
}

/** The eight 16-bit groups of an address isIP() called IPv6 (a zone dropped, a trailing dotted IPv4 read as two groups). */
function groupsOf(ip: string): number[] {
  let text = ip.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const hi = parse(head);
  if (tail === undefined) return hi;
  const lo = parse(tail);
  return [...hi, ...new Array<number>(8 - hi.length - lo.length).fill(0), ...lo];
}

function v4Of(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}
