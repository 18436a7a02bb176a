/**
 * RPC_PROBE_ON_PATCH inside the store: the enabled URLs of a PATCH are handed to a check the store
 * is given at construction, like the write strategy's parts (write-strategy.ts): src/probe wires
 * the prober, and the store itself makes no network call. In `reject` mode
 * a URL that serves another chain refuses the PATCH with a detail at its entry. What can refuse
 * the PATCH without the network is checked first, so such a PATCH asks no URL.
 */
import { NetcfgError } from '../../errors.js';
import type { NetworkId } from '../files/layout.js';
import { networkOf, type NetworkRecord } from '../network-record.js';
import { normaliseEntry } from '../validation/url-rules.js';
import { requireIfMatch } from '../edit/network-edit.js';
import { maskFindings } from './secret-echo.js';
import { resolveRpcUrls, type SecretLookup } from '../validation/secret-refs.js';

/** What a URL of a PATCH answered, when it was not simply fine. */
export interface UrlFinding {
  url: string;
  status: string;
  error: string | null;
}

/** Asks `urls` (of a `family` network claiming `claimed`) which chain they serve; one finding per URL, in order. */
export interface UrlCheck {
  mode: 'warn' | 'reject';
  check(family: string, urls: string[], claimed: Record<string, unknown>): Promise<UrlFinding[]>;
}

/** The network a PATCH names, as served: its record (none when unknown), and whether the file on disk is that version. */
export interface ServedVersion {
  id: NetworkId;
  record: NetworkRecord | undefined;
  /** False while the file is invalid and its last good version is served. */
  onDisk: boolean;
}

/**
 * The findings that were not fine, or a VALIDATION_FAILED refusal in `reject` mode; the URLs asked
 * are the values of `changes`' secret references (`lookup`), which every finding shows masked. Before any URL
 * is asked: an unknown network is 404 and a stale If-Match 412, against the version served (the
 * writer checks If-Match again against the bytes on disk). While the file on disk is not the
 * version served, only the writer's check can say which ETag is current, so it alone decides.
 */
export async function checkPatchUrls(
  urlCheck: UrlCheck,
  served: ServedVersion,
  changes: Record<string, unknown>,
  ifMatch: string | undefined,
  lookup: SecretLookup | undefined,
): Promise<UrlFinding[]> {
  const { id, record } = served;
  if (!record)
    throw new NetcfgError('NETWORK_NOT_FOUND', `Network ${id.id} was not found; GET /api/v1/networks lists the ids.`);
  if (served.onDisk) requireIfMatch(id, ifMatch, record.etag);
  const family = id.family;
  const claimed = networkOf(record);
  const { entries: values, secrets } = resolveRpcUrls((changes.rpc_urls ?? []) as unknown[], lookup, id.id);
  const entries = values.map((raw, index) => ({ ...normaliseEntry(raw), index })).filter((e) => e.weight > 0);
  const answers = maskFindings(
    await urlCheck.check(
      family,
      entries.map((e) => e.url),
      claimed,
    ),
    secrets,
  );
  const wrong = answers
    .map((a, i) => ({ ...a, index: entries[i]?.index ?? i }))
    .filter((a) => a.status === 'wrong_chain');
  if (urlCheck.mode === 'reject' && wrong.length > 0) {
    const details = wrong.map((a) => ({
      pointer: `/rpc_urls/${a.index}`,
      message: `rpc_urls[${a.index}] serves another chain: ${a.error ?? ''}`,
    }));
    throw new NetcfgError(
      'VALIDATION_FAILED',
      `${details[0]?.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}; nothing was written.`,
      { details },
    );
  }
  return answers.filter((a) => a.status !== 'ok');
}
