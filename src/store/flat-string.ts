/**
 * Strings the index keeps for as long as a network is served are built flat, as one object.
 *
 * V8 keeps the result of `a + b` or of a template literal (13 characters or more) as a rope: a
 * tree of string objects that lives as long as the string does. Per network the index held ~22
 * heap objects, most of them such ropes (its id, path, ETag, body, the stat stamp of its file),
 * and every one of them is walked by each major GC; at 100,000 networks that cost grows with
 * the index, which a page's cost must not (issue 6). Array#join copies the pieces into one new
 * flat string (measured with %DebugPrint: a template gives CONS_ONE_BYTE_STRING_TYPE, a join of
 * two or more pieces ONE_BYTE_STRING_TYPE).
 */

/** The pieces joined into one flat string (not a rope). */
export function flatJoin(...pieces: Array<string | number | bigint>): string {
  return pieces.join('');
}

/** A flat copy of `s`, whatever it was built from (a rope, a slice of a larger string). */
export function flatCopy(s: string): string {
  return s.length < 2 ? s : flatJoin(s.slice(0, 1), s.slice(1));
}
