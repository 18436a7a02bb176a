/**
 * The record the index keeps for each valid network, and the views made from it. Knows nothing
 * of YAML or files: network-file.ts builds records from files, the index cache from its lines.
 */

/** One entry of a network's rpc_urls that came from a reference (validation/secret-refs.ts resolves it). */
export interface SecretEntry {
  /** Its place in rpc_urls. */
  index: number;
  /** The environment variable it names. */
  name: string;
  /** The value: only the prober, the relayer sync and a revealing token get it. */
  url: string;
  /** What everyone else sees in its place. */
  masked: string;
  /** Written as the reference alone (weight 100), not as the `url` of `{url, weight}`. */
  plain: boolean;
}

/** A valid network as served: its GET response body (serialised once) and the ETag of its bytes. */
export interface NetworkRecord {
  id: string;
  /** Path relative to the config folder, posix separators. */
  path: string;
  etag: string;
  /**
   * The whole GET response body, built once when the file changes, so a read is a lookup: the
   * envelope around the wire view (id, name, network_type first, then the file's fields).
   */
  body: string;
  /**
   * `rpc_urls` as the file writes them, as JSON, when that is not the served `{url, weight}` form
   * (a plain string stands for weight 100): what an export to the relayer's files keeps.
   */
  writtenRpcUrls?: string;
  /**
   * The entries of rpc_urls that came from `{type: env, value: NAME}` references, resolved; `body`
   * holds each masked. Kept in memory only: the index cache never writes a record that has them.
   */
  secrets?: SecretEntry[];
}

const BODY_HEAD = '{"success":true,"data":';
const BODY_TAIL = ',"error":null}';

/** A record from its parts; `json` is the wire view as JSON. */
export function recordOf(
  id: string,
  relPath: string,
  etag: string,
  json: string,
  writtenRpcUrls?: string,
  secrets: SecretEntry[] = [],
): NetworkRecord {
  const record: NetworkRecord = { id, path: relPath, etag, body: BODY_HEAD + json + BODY_TAIL };
  if (writtenRpcUrls !== undefined) record.writtenRpcUrls = writtenRpcUrls;
  if (secrets.length > 0) record.secrets = secrets;
  return record;
}

/** The wire view of a record as JSON (for list pages and the index cache): a slice of its body. */
export function jsonOf(record: NetworkRecord): string {
  return record.body.slice(BODY_HEAD.length, record.body.length - BODY_TAIL.length);
}

/** The wire view of a record as an object. */
export function networkOf(record: NetworkRecord): Record<string, unknown> {
  return JSON.parse(jsonOf(record)) as Record<string, unknown>;
}

/**
 * The wire view with each secret's value in place of its mask (`secret: true` kept): what a token
 * that may reveal secrets is served, and what the prober and the relayer sync use.
 */
export function revealedNetworkOf(record: NetworkRecord): Record<string, unknown> {
  const view = networkOf(record);
  if (record.secrets === undefined) return view;
  const urls = [...(view.rpc_urls as Array<Record<string, unknown>>)];
  for (const secret of record.secrets) urls[secret.index] = { ...urls[secret.index], url: secret.url };
  return { ...view, rpc_urls: urls };
}

/** revealedNetworkOf as the GET response body. */
export function revealedBodyOf(record: NetworkRecord): string {
  return record.secrets === undefined ? record.body : BODY_HEAD + JSON.stringify(revealedNetworkOf(record)) + BODY_TAIL;
}

/**
 * The wire view with `rpc_urls` as the file writes them: what an export to another tool's files
 * keeps. Secret references stay references, unless `resolveSecrets` puts each one's value in its place.
 */
export function writtenNetworkOf(record: NetworkRecord, resolveSecrets = false): Record<string, unknown> {
  const view = networkOf(record);
  if (record.writtenRpcUrls === undefined) return view;
  const written = JSON.parse(record.writtenRpcUrls) as unknown[];
  if (resolveSecrets) {
    for (const { index, url } of record.secrets ?? []) {
      const entry = written[index] as Record<string, unknown>;
      written[index] = entry.type === 'env' ? url : { ...entry, url };
    }
  }
  return { ...view, rpc_urls: written };
}
