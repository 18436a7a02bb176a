/**
 * The GET bodies of a loaded index, packed off V8's heap: the bodies of each group are copied into
 * one string of ~2 MB that Node keeps outside the heap (an external string: Node makes one of any
 * Latin-1 string over ~1 MB it decodes from a Buffer), and each record's body becomes a slice of
 * it (V8 keeps a slice of 13 characters or more as a small object pointing into its parent).
 *
 * Why: every scavenge costs more the more the old generation holds, and a scavenge runs every
 * ~150 read requests. One heap string per body put ~55 MB of the ~100 MB heap of 100,000
 * networks there, so a page of the list cost more at 100,000 networks than at 1,000 (issue 6).
 * Measured with the same bytes as ballast in a 1,000-network server, list-10: a scavenge took
 * 0.39-0.44 ms with them as 100,000 strings, 0.22-0.28 ms as slices of external strings, and
 * 0.23-0.27 ms with no ballast at all. The replaced bodies leave the old generation only at its
 * next full GC: for a large folder, src/heap.ts runs one once the load is in.
 *
 * A body with a character beyond ASCII stays a string of its own. A parent lives as long as
 * any of its slices: a body replaced later (a PATCH, a git pull) is a string of its own, and its
 * old bytes stay in the parent until every network of that group has changed or the process
 * restarts. At worst that doubles the bodies' memory.
 */
import type { NetworkRecord } from './network-record.js';

/** Characters (= bytes) per packed string: twice Node's threshold for an external string. */
export const PACK_CHARS = 2 << 20;

/** Rewrites each record's body as a slice of a shared string; the text of every body is unchanged. */
export function packBodies(records: Iterable<NetworkRecord>, packChars = PACK_CHARS): void {
  let bytes: Buffer | null = null; // one buffer for every group: no ~2 MB of garbage per group
  let group: NetworkRecord[] = [];
  let chars = 0;
  const pack = (): void => {
    // A group ends past packChars by less than one body: twice that fits every group of ordinary bodies.
    if (bytes === null || bytes.length < chars) bytes = Buffer.allocUnsafeSlow(Math.max(chars, 2 * packChars));
    let at = 0;
    for (const record of group) at += bytes.write(record.body, at, 'latin1');
    const parent = bytes.toString('latin1', 0, chars);
    at = 0;
    for (const record of group) {
      const end = at + record.body.length;
      record.body = parent.slice(at, end);
      at = end;
    }
    group = [];
    chars = 0;
  };
  for (const record of records) {
    if (Buffer.byteLength(record.body, 'utf8') !== record.body.length) continue; // not all ASCII
    group.push(record);
    chars += record.body.length;
    if (chars >= packChars) pack();
  }
  if (group.length > 0) pack();
}
