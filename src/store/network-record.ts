/**
 * The record the index keeps for each valid network, and the views made from it. Knows nothing
 * of YAML or files: network-file.ts builds records from files, the index cache from its lines.
 */
import { flatCopy, flatJoin } from './flat-string.js';

/**
 * A valid network as served: its GET response body (serialised once) and the ETag of its bytes.
 * One object and four flat strings (see flat-string.ts): the index holds no object per field of
 * every network, and no second copy of its JSON (at 100,000 networks every object is one more
 * for each major GC to walk, every byte one more for each scavenge's walk over the old
 * generation's pages). networkOf() parses the wire view when it is needed as an object,
 * jsonOf() slices it out of the body for list pages.
 */
export interface NetworkRecord {
  id: string;
  /** Path relative to the config folder, posix separators. */
  path: string;
  etag: string;
  /**
   * The whole GET response body, built once: the envelope around the wire view (id, name,
   * network_type first, then the file's fields). A string, not a Buffer: Node writes a string
   * body together with the headers in one write, where a Buffer takes the slower writev path.
   * Once the first load is in, a slice of a larger string kept off V8's heap (body-pack.ts).
   */
  body: string;
}

/**
 * A record from its parts; `json` is the wire view as JSON. The id is copied: it may be a slice
 * of a request's URL (a PATCH), which would keep the whole URL alive. The path is kept as given:
 * it is also the key of the store's maps of files, and relativePathOf() makes it flat.
 */
export function recordOf(id: string, relPath: string, etag: string, json: string): NetworkRecord {
  return { id: flatCopy(id), path: relPath, etag, body: flatJoin(BODY_HEAD, json, BODY_TAIL) };
}

const BODY_HEAD = '{"success":true,"data":';
const BODY_TAIL = ',"error":null}';

/** The wire view of a record as JSON (for list pages and the index cache): a slice of its body. */
export function jsonOf(record: NetworkRecord): string {
  return record.body.slice(BODY_HEAD.length, record.body.length - BODY_TAIL.length);
}

/** The wire view of a record as an object. */
export function networkOf(record: NetworkRecord): Record<string, unknown> {
  return JSON.parse(jsonOf(record)) as Record<string, unknown>;
}
