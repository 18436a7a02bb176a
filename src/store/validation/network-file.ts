/**
 * One network file's bytes -> a served record, or the problems that keep it from being served.
 * YAML problems are data here (parseDocument's errors with line and column), never exceptions,
 * and schema problems are located back in the file so readiness and `netcfg validate` can say
 * `path:line:column`.
 */
import { createHash } from 'node:crypto';
import {
  isCollection,
  isMap,
  isSeq,
  isPair,
  isScalar,
  LineCounter,
  parseDocument,
  visit,
  type Document,
  type Node,
} from 'yaml';
import type { NetworkId } from '../files/layout.js';
import { recordOf, type NetworkRecord } from '../network-record.js';
import { validateNetworkData } from './network-rules.js';
import { normaliseEntry, type UrlPolicy } from './url-rules.js';
import { maskedEntries, refOf, resolveRpcUrls } from './secret-refs.js';

export interface FileProblem {
  line: number;
  column: number;
  message: string;
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

export interface ParsedYaml {
  doc: Document;
  lines: LineCounter;
  problems: FileProblem[];
}

/** Parses YAML text, keeping comments and positions; syntax errors come back as problems. */
export function parseYaml(text: string): ParsedYaml {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: true,
    prettyErrors: true,
    keepSourceTokens: false,
  });
  const problems = doc.errors.map((e) => {
    const pos = e.linePos?.[0] ?? { line: 1, col: 1 };
    return { line: pos.line, column: pos.col, message: firstLine(e.message) };
  });
  return { doc, lines, problems };
}

/** yaml's messages end with "at line L, column C:" and a code excerpt; the position is separate. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
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

/**
 * The first node that would not come out of toJS() as plain JSON, located: an alias to an anchor
 * that does not exist (toJS would throw without a position), an alias inside the node it refers
 * to (a cycle, which JSON cannot hold), a tagged value that is not a string, number, boolean or
 * null (`!!binary`, `!!timestamp`, `!!set`), a number JSON clients cannot hold exactly (beyond
 * 2^53, or .inf/.nan) and a key that is a list or a mapping.
 */
function notPlainData(doc: Document, lines: LineCounter): FileProblem | null {
  let found: FileProblem | null = null;
  const at = (node: Node | null | undefined, message: string): typeof visit.BREAK => {
    const pos = lines.linePos(node?.range?.[0] ?? 0);
    found = { line: pos.line, column: pos.col, message };
    return visit.BREAK;
  };
  visit(doc, {
    Alias(_, node) {
      const target = node.resolve(doc);
      if (target === undefined)
        return at(node, `alias *${node.source} refers to an anchor that is not defined before it`);
      const start = node.range?.[0] ?? -1;
      const [from, , to] = target.range ?? [0, 0, 0];
      if (start >= from && start < to)
        return at(
          node,
          `alias *${node.source} is inside the value it refers to (&${node.source}), a loop that JSON cannot hold`,
        );
      return undefined;
    },
    Pair(_, pair) {
      if (isCollection(pair.key)) return at(pair.key, 'a key must be a plain scalar, not a list or a mapping');
      return undefined;
    },
    Map(_, node) {
      return node.tag === undefined || node.tag === 'tag:yaml.org,2002:map'
        ? undefined
        : at(node, `tag ${shortTag(node.tag)} is not allowed; use a plain mapping`);
    },
    Seq(_, node) {
      return node.tag === undefined || node.tag === 'tag:yaml.org,2002:seq'
        ? undefined
        : at(node, `tag ${shortTag(node.tag)} is not allowed; use a plain list`);
    },
    Scalar(_, node) {
      const value: unknown = node.value;
      if (typeof value === 'number') {
        if (!Number.isFinite(value))
          return at(node, `${node.source ?? value} is not a number JSON can carry; remove it or quote it as a string`);
        if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
          return at(
            node,
            `${node.source ?? value} is beyond 2^53 - 1, where JSON clients round integers; quote it as a string if it is not a number`,
          );
        }
        return undefined;
      }
      if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
      return at(
        node,
        `tag ${shortTag(node.tag)} makes a value that is not a string, number, boolean or null; remove the tag`,
      );
    },
  });
  return found;
}

/** `!!binary` for yaml's `tag:yaml.org,2002:binary`, as the file spells it. */
function shortTag(tag: string | undefined): string {
  return (tag ?? '').replace(/^tag:yaml\.org,2002:/, '!!');
}

/** Where a JSON Pointer lands in a file's text (line and column of the deepest node on its path). */
export function positionIn(text: string, pointer: string): { line: number; column: number } {
  const { doc, lines } = parseYaml(text);
  return locate(doc, lines, pointer);
}

/** Finds where a JSON Pointer lands in the document: the deepest node that exists on its path. */
function locate(doc: Document, lines: LineCounter, pointer: string): { line: number; column: number } {
  let node: unknown = doc.contents;
  let offset = (doc.contents as Node | null)?.range?.[0] ?? 0;
  const segments =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === segment);
      if (!pair) break;
      offset = (pair.key as Node).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node)) {
      node = node.items[Number(segment)];
    } else {
      break;
    }
    const start = (node as Node | null)?.range?.[0];
    if (start !== undefined) offset = start;
  }
  const pos = lines.linePos(offset);
  return { line: pos.line, column: pos.col };
}
