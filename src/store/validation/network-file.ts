/**
 * One network file's bytes -> a served record, or the problems that keep it from being served.
 * The YAML is read with its positions (yaml-document.ts), and schema problems are located back in
 * the file so readiness and `netcfg validate` can say `path:line:column`.
 */
import { createHash } from 'node:crypto';
import { isScalar } from 'yaml';
import type { NetworkId } from '../files/layout.js';
import { recordOf, type NetworkRecord } from '../network-record.js';
import { validateNetworkData } from './network-rules.js';
import { normaliseEntry, type UrlPolicy } from './url-rules.js';
import { maskedEntries, refOf, resolveRpcUrls } from './secret-refs.js';
import { locate, notPlainData, parseYaml, type ParsedYaml, type YamlProblem } from './yaml-document.js';

/** A problem of a network file, at its place; a secret reference's problem also names its variable. */
export interface FileProblem extends YamlProblem {
  /** The variable a reference names that is not set: `netcfg validate` warns of it, where CI has no secrets. */
  unsetSecret?: string;
  /** The variable named by the reference this problem is about (unset or not allowed): readiness shows it to admins only. */
  secretRef?: string;
}

export type ParseOutcome = { ok: true; record: NetworkRecord } | { ok: false; problems: FileProblem[] };

/** Strong ETag: a hash of the file's exact bytes, so edits made behind netcfg's back change it. */
export function etagOf(bytes: Uint8Array | string): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}

/** Validates a file's text for the network `id` stored at `relPath`. */
export function parseNetworkFile(text: string, id: NetworkId, relPath: string, policy: UrlPolicy): ParseOutcome {
  return parseNetworkData(text, id, relPath, policy).outcome;
}

/**
 * parseNetworkFile, also giving the file's data as read (what a writer checks its edit against).
 * `parsed`, when given, must be parseYaml(text).
 */
export function parseNetworkData(
  text: string,
  id: NetworkId,
  relPath: string,
  policy: UrlPolicy,
  parsed = parseYaml(text),
): { outcome: ParseOutcome; data?: unknown; parsed: ParsedYaml } {
  return { ...checkParsed(parsed, text, id, relPath, policy), parsed };
}

function checkParsed(
  parsed: ParsedYaml,
  text: string,
  id: NetworkId,
  relPath: string,
  policy: UrlPolicy,
): { outcome: ParseOutcome; data?: unknown } {
  try {
    return checkShape(parsed, text, id, relPath, policy);
  } catch (err) {
    // The checks below are meant to leave nothing that throws; if a shape slips past them, it is
    // still this file's problem and never the loader's, the watcher's or a PATCH's.
    return {
      outcome: {
        ok: false,
        problems: [{ line: 1, column: 1, message: `the file cannot be read as a network: ${(err as Error).message}` }],
      },
    };
  }
}

function checkShape(
  { doc, lines, problems }: ParsedYaml,
  text: string,
  id: NetworkId,
  relPath: string,
  policy: UrlPolicy,
): { outcome: ParseOutcome; data?: unknown } {
  if (problems.length > 0) return { outcome: { ok: false, problems } };
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    return {
      outcome: {
        ok: false,
        problems: [{ line: 1, column: 1, message: 'the file is empty; a network needs at least rpc_urls' }],
      },
    };
  }
  const notPlain = notPlainData(doc, lines);
  if (notPlain) return { outcome: { ok: false, problems: [notPlain] } };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { outcome: { ok: false, problems: [{ line: 1, column: 1, message: (err as Error).message }] } };
  }
  const details = validateNetworkData(data, id, policy);
  if (details.length > 0) {
    return {
      outcome: {
        ok: false,
        problems: details.map(({ pointer, message, ...more }) => ({
          ...locate(doc, lines, pointer),
          message: message.replace(/^The body/, 'The file'),
          ...more,
        })),
      },
      data,
    };
  }
  return {
    outcome: { ok: true, record: buildRecord(data as Record<string, unknown>, id, relPath, etagOf(text), policy) },
    data,
  };
}

function buildRecord(
  data: Record<string, unknown>,
  id: NetworkId,
  relPath: string,
  etag: string,
  policy: UrlPolicy,
): NetworkRecord {
  const rpcUrls = data.rpc_urls as unknown[];
  // Validation passed, so every reference resolved; the served body holds each secret masked.
  const { entries, secrets } = resolveRpcUrls(rpcUrls, policy.secrets, id.id);
  const served = maskedEntries(entries.map(normaliseEntry), secrets);
  const fields = Object.entries(data)
    .filter(([key]) => key !== 'id' && key !== 'name' && key !== 'network_type')
    .map(([key, value]) => [key, key === 'rpc_urls' ? served : value]);
  // fromEntries defines each key as data, so a field named __proto__ stays a field.
  const network = Object.fromEntries([
    ['id', id.id],
    ['name', id.name],
    ['network_type', id.family],
    ...fields,
  ]) as Record<string, unknown>;
  const written = rpcUrls.some((e) => typeof e === 'string' || refOf(e) !== null) ? JSON.stringify(rpcUrls) : undefined;
  return recordOf(id.id, relPath, etag, JSON.stringify(network), written, secrets);
}
