/**
 * What a PATCH makes of a network file's text: the new values spliced in where the splice reads
 * back as intended (yaml-edit.ts), else edited through yaml's Document, and either way checked
 * with the loader's own code before anything is written. Refused when the result is invalid, or
 * when it would change a field the request did not name.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Document } from 'yaml';
import { NetcfgError, type ErrorDetail } from '../../errors.js';
import type { NetworkId } from '../files/layout.js';
import type { NetworkRecord } from '../network-record.js';
import { etagOf, parseNetworkData, type FileProblem } from '../validation/network-file.js';
import { parseYaml } from '../validation/yaml-document.js';
import type { UrlPolicy } from '../validation/url-rules.js';
import { intendedData, rewriteTopLevel, spliceTopLevel } from './yaml-edit.js';

/**
 * What a PATCH makes of a file's bytes: the file is not a valid network (`invalid`, with the refusal
 * its caller throws once it knows the file was whole), the request changes nothing (`same`), or the new text.
 */
export type EditPlan =
  | { kind: 'invalid'; refusal: NetcfgError }
  | { kind: 'same'; record: NetworkRecord }
  | { kind: 'edit'; text: string; record: NetworkRecord; fields: string[] };

/**
 * The edit of `bytes` (the file `rel` of `id`) that `changes` ask for, written nowhere: If-Match is
 * checked against the bytes' hash (PRECONDITION_FAILED), and only a valid network is edited. The
 * write path (network-writer.ts) writes it to the file; a proposal (proposals/proposal.ts) commits it on a branch.
 * `served`, the record served of `id`, spares the check of bytes it was made from (same hash, same
 * path): the loader checked them with this code and policy, so they are parsed here and not validated again.
 */
export function planEdit(
  id: NetworkId,
  rel: string,
  bytes: Buffer,
  changes: Record<string, unknown>,
  ifMatch: string | undefined,
  policy: UrlPolicy,
  served?: NetworkRecord,
): EditPlan {
  const etag = etagOf(bytes);
  requireIfMatch(id, ifMatch, etag);
  const text = bytes.toString('utf8');
  const parsed = parseYaml(text);
  const known = served?.etag === etag && served.path === rel && parsed.problems.length === 0;
  const { outcome, data: read } = known
    ? { outcome: { ok: true as const, record: served }, data: parsed.doc.toJS({ maxAliasCount: 100 }) as unknown }
    : parseNetworkData(text, id, rel, policy, parsed);
  if (!outcome.ok) {
    const yamlBad = parsed.problems.length > 0;
    const what = yamlBad
      ? 'is not valid YAML, so it cannot be edited safely'
      : 'is not a valid network file, so it is not served and cannot be edited';
    const refusal = new NetcfgError('FILE_INVALID', `${rel} ${what}; fix the file in git first.`, {
      details: detailsOf(rel, outcome.problems),
    });
    return { kind: 'invalid', refusal };
  }
  const data = (read ?? {}) as Record<string, unknown>; // the loader's own toJS of these bytes
  const changed = Object.entries(changes).filter(([key, value]) => !isDeepStrictEqual(data[key], value));
  if (changed.length === 0) return { kind: 'same', record: outcome.record };
  return {
    kind: 'edit',
    ...editedText(id, rel, text, parsed.doc, data, changed, policy),
    fields: changed.map(([key]) => key),
  };
}

/** The subject of a PATCH's commit (unless netcfg's own note gives another). */
export function updateSubject(id: NetworkId, fields: string[]): string {
  return `netcfg: update ${fields.join(', ')} of ${id.id}`;
}

/** The text of `rel` (parsed as `doc`, read as `data`) with `changed` applied, and its record. */
export function editedText(
  id: NetworkId,
  rel: string,
  text: string,
  doc: Document,
  data: Record<string, unknown>,
  changed: Array<[string, unknown]>,
  policy: UrlPolicy,
): { text: string; record: NetworkRecord } {
  const intended = intendedData(data, changed);
  const check = (next: string) => {
    const { outcome, data: read } = parseNetworkData(next, id, rel, policy);
    return { text: next, outcome, asIntended: isDeepStrictEqual(read, intended) };
  };
  const spliced = spliceTopLevel(text, doc, changed);
  let checked = spliced === null ? null : check(spliced);
  if (checked === null || !checked.asIntended) checked = check(rewritten(rel, doc, changed));
  if (!checked.outcome.ok) throw wouldBeInvalid(rel, checked.outcome.problems);
  // A YAML anchor on a replaced value that another field uses: either edit would change that field too.
  if (!checked.asIntended) throw sharedAnchor(rel, changed);
  return { text: checked.text, record: checked.outcome.record };
}

/** A file's problems as error details: `path:line:column: message`. */
export function detailsOf(rel: string, problems: FileProblem[]): ErrorDetail[] {
  return problems.map((p) => ({ pointer: '', message: `${rel}:${p.line}:${p.column}: ${p.message}` }));
}

function wouldBeInvalid(rel: string, problems: FileProblem[]): NetcfgError {
  return new NetcfgError(
    'FILE_INVALID',
    `The change is valid on its own, but ${rel} would be invalid with it (see details); nothing was written.`,
    { details: detailsOf(rel, problems) },
  );
}

/** The edit through yaml's Document; one it cannot print (an alias to an anchor the edit replaced) is refused. */
function rewritten(rel: string, doc: Document, changes: Array<[string, unknown]>): string {
  try {
    return rewriteTopLevel(doc, changes);
  } catch {
    throw sharedAnchor(rel, changes);
  }
}

function sharedAnchor(rel: string, changes: Array<[string, unknown]>): NetcfgError {
  const fields = changes.map(([key]) => key).join(', ');
  return new NetcfgError(
    'FILE_INVALID',
    `${rel} cannot be edited without changing fields the request did not name (a YAML anchor on ${fields} is used elsewhere in the file); edit it in git.`,
  );
}

/** PRECONDITION_FAILED, carrying the current ETag, unless `ifMatch` (when sent) accepts `etag`. */
export function requireIfMatch(id: NetworkId, ifMatch: string | undefined, etag: string): void {
  if (ifMatch === undefined || ifMatchAccepts(ifMatch, etag)) return;
  throw new NetcfgError(
    'PRECONDITION_FAILED',
    `${id.id} has changed since the ETag in If-Match was read; GET it again and retry with the new ETag.`,
    { etag },
  );
}

/** RFC 9110 If-Match: `*` or a list of strong ETags; weak ETags never match. */
export function ifMatchAccepts(header: string, etag: string): boolean {
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag;
  });
}
