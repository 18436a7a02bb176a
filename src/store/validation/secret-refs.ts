/**
 * Secret references in rpc_urls: `{type: env, value: NAME}` wherever a URL string may stand (a plain
 * entry, or the `url` of a weighted one), the shape of the relayer's PR #517. The file keeps the
 * reference, so no provider key reaches git; netcfg resolves it from its environment when the file
 * loads, and every view but a revealing token's shows the value masked (redact.ts' maskSecretUrl).
 */
import type { ErrorDetail } from '../../errors.js';
import { maskSecretUrl } from '../../redact.js';
import { describePointer } from './schema-errors.js';
import type { SecretEntry } from '../network-record.js';

export interface SecretRef {
  type: 'env';
  value: string;
}

/**
 * How a reference of network `networkId` to `name` becomes its value (main hands in its environment,
 * behind SECRET_REFS_ALLOWED): not allowed, or allowed with its value (undefined: not set).
 */
export type SecretLookup = (
  networkId: string,
  name: string,
) => { allowed: false } | { allowed: true; value: string | undefined };

export function isSecretRef(value: unknown): value is SecretRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'env' &&
    typeof (value as { value?: unknown }).value === 'string'
  );
}

/** The reference an rpc_urls entry holds (itself, or its url), or null for a URL written out. */
export function refOf(entry: unknown): SecretRef | null {
  if (isSecretRef(entry)) return entry;
  const url = typeof entry === 'object' && entry !== null ? (entry as { url?: unknown }).url : undefined;
  return isSecretRef(url) ? url : null;
}

export interface Resolved {
  /** The entries with each reference replaced by its value (weight kept); an unset one is null. */
  entries: unknown[];
  secrets: SecretEntry[];
  /**
   * A reference that does not resolve, located: one the network may not make (the same sentence whether its variable
   * is set or not), or an allowed one whose variable is not set or empty (`unsetSecret` names it).
   */
  refused: Array<ErrorDetail & { unsetSecret?: string; secretRef: string }>;
}

/** Resolves the references of network `networkId`'s rpc_urls array, whose shape the schema already accepted. */
export function resolveRpcUrls(
  entries: readonly unknown[],
  lookup: SecretLookup | undefined,
  networkId: string,
  base = '/rpc_urls',
): Resolved {
  const secrets: SecretEntry[] = [];
  const refused: Resolved['refused'] = [];
  const resolved = entries.map((entry, index) => {
    const ref = refOf(entry);
    if (ref === null) return entry;
    const answer = lookup?.(networkId, ref.value) ?? { allowed: false };
    const value = answer.allowed ? (answer.value ?? '') : '';
    if (value === '') {
      const pointer = entry === ref ? `${base}/${index}` : `${base}/${index}/url`;
      const place = `${describePointer(pointer)} names the environment variable ${ref.value}`;
      refused.push(
        answer.allowed
          ? {
              pointer,
              unsetSecret: ref.value,
              secretRef: ref.value,
              message: `${place}, which is not set (or empty) in netcfg's environment; set it, or write the URL.`,
            }
          : { pointer, secretRef: ref.value, message: notAllowed(place, networkId) },
      );
      return null;
    }
    secrets.push({ index, name: ref.value, url: value, masked: maskSecretUrl(value), plain: entry === ref });
    return entry === ref ? value : { ...(entry as object), url: value };
  });
  return { entries: resolved, secrets, refused };
}

/** The one sentence for a reference outside SECRET_REFS_ALLOWED: its variable's value is never read for it. */
function notAllowed(place: string, networkId: string): string {
  const how =
    "SECRET_REFS_ALLOWED lists the variables each network may name (netcfg's own settings never); add it there, or write the URL";
  return `${place}, which ${networkId} may not reference: ${how}.`;
}

/** The served view's rpc_urls (`{url, weight}` each) with each secret's place `{url: masked, weight, secret: true}`. */
export function maskedEntries(
  served: ReadonlyArray<{ url: string; weight: number }>,
  secrets: readonly SecretEntry[],
): unknown[] {
  const byIndex = new Map(secrets.map((s) => [s.index, s]));
  return served.map((entry, i) => {
    const secret = byIndex.get(i);
    return secret === undefined ? entry : { url: secret.masked, weight: entry.weight, secret: true };
  });
}
