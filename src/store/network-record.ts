/**
 * The record the index keeps for each valid network, and the views made from it. Knows nothing
 * of YAML or files: network-file.ts builds records from files, the index cache from its lines.
 */

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
}

const BODY_HEAD = '{"success":true,"data":';
const BODY_TAIL = ',"error":null}';

/** A record from its parts; `json` is the wire view as JSON. */
export function recordOf(id: string, relPath: string, etag: string, json: string, writtenRpcUrls?: string): NetworkRecord {
  const record: NetworkRecord = { id, path: relPath, etag, body: BODY_HEAD + json + BODY_TAIL };
  return writtenRpcUrls === undefined ? record : { ...record, writtenRpcUrls };
}

/** The wire view of a record as JSON (for list pages and the index cache): a slice of its body. */
export function jsonOf(record: NetworkRecord): string {
  return record.body.slice(BODY_HEAD.length, record.body.length - BODY_TAIL.length);
}

/** The wire view of a record as an object. */
export function networkOf(record: NetworkRecord): Record<string, unknown> {
  return JSON.parse(jsonOf(record)) as Record<string, unknown>;
}

/** The wire view with `rpc_urls` as the file writes them: what an export to another tool's files keeps. */
export function writtenNetworkOf(record: NetworkRecord): Record<string, unknown> {
  const view = networkOf(record);
  return record.writtenRpcUrls === undefined ? view : { ...view, rpc_urls: JSON.parse(record.writtenRpcUrls) as unknown };
}
