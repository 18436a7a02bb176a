/**
 * A block list replaced entry by entry, so the comments people write beside their RPC URLs
 * survive a PATCH or a prober's disable: an entry the new list keeps (the same URL or reference)
 * keeps its own text, the comment lines above it and its inline comments; an entry whose other
 * scalars changed (its weight) has only those scalars replaced; a new entry is rendered as yaml
 * prints it. An entry removed takes its comments with it. The caller reads the result back and
 * keeps it only if it reads as intended.
 */
import { isDeepStrictEqual } from 'node:util';
import { Document, isCollection, isMap, isPair, isScalar, isSeq, type Node, type YAMLSeq } from 'yaml';

/** One entry of the old list as text: the comment lines above it and its own lines, from its `-`. */
interface OldEntry {
  node: Node;
  value: unknown;
  before: string;
  body: string;
  /** Where `body` starts in the file, to splice inside it. */
  at: number;
  used: boolean;
}

/**
 * The text replacing the block list `seq` (from its first `-` to the end of its last entry, without
 * the final line break) by `next`, or null when `seq` is not a block list of plain entries.
 */
export function spliceList(
  text: string,
  seq: Node,
  next: readonly unknown[],
  indent: number,
  eol: string,
): string | null {
  if (!isSeq(seq) || seq.flow === true || !seq.range) return null;
  const old = oldEntries(text, seq as YAMLSeq<Node>);
  if (old === null) return null;
  const pieces = next.map((entry) => {
    const match = old.find((o) => !o.used && isDeepStrictEqual(identity(o.value), identity(entry)));
    if (match === undefined) return { before: '', body: renderEntry(entry, indent, eol, '') };
    match.used = true;
    return { before: match.before, body: keptBody(text, match, entry, indent, eol) };
  });
  // The text replaced starts at the first `-`, after its line's indentation: the first piece's comment lines move before it.
  const pad = ' '.repeat(indent);
  return pieces
    .map(
      (p, i) =>
        (i === 0 && p.before !== '' ? `${p.before.replace(/^[ \t]+/, '')}${pad}` : i === 0 ? '' : `${p.before}${pad}`) +
        p.body,
    )
    .join(eol);
}

/** What makes two entries the same one: the URL (or reference) of a `{url, ...}` entry, else the entry itself. */
function identity(entry: unknown): unknown {
  return typeof entry === 'object' && entry !== null && 'url' in entry ? (entry as { url: unknown }).url : entry;
}

function oldEntries(text: string, seq: YAMLSeq<Node>): OldEntry[] | null {
  const entries: OldEntry[] = [];
  let previousEnd = seq.range?.[0] ?? 0;
  for (const node of seq.items) {
    if (!node?.range) return null;
    const dash = text.lastIndexOf('-', node.range[0] - 1);
    if (dash < previousEnd) return null;
    const lineStart = text.lastIndexOf('\n', dash - 1) + 1;
    const end = node.range[2];
    entries.push({
      node,
      value: node.toJSON(),
      before: lineStart > previousEnd ? text.slice(previousEnd, lineStart) : '',
      body: text.slice(dash, end).replace(/\r?\n$/, ''),
      at: dash,
      used: false,
    });
    previousEnd = end;
  }
  return entries;
}

/** The old entry's text for `entry`: as it was, with changed scalars replaced, or rendered anew with its first line's comment. */
function keptBody(text: string, old: OldEntry, entry: unknown, indent: number, eol: string): string {
  if (isDeepStrictEqual(old.value, entry)) return old.body;
  const spliced = scalarsReplaced(old, entry);
  if (spliced !== null) return spliced;
  // A URL holds no space, so ` #` on the first line starts its comment; a wrong guess fails the caller's read-back.
  const comment = /\s+#.*$/.exec(old.body.split(/\r?\n/)[0] as string)?.[0] ?? '';
  return renderEntry(entry, indent, eol, comment);
}

/** A mapping entry whose keys stay and whose changed values are scalars on both sides, with those scalars replaced. */
function scalarsReplaced(old: OldEntry, entry: unknown): string | null {
  if (!isMap(old.node) || typeof entry !== 'object' || entry === null || Array.isArray(entry)) return null;
  const next = entry as Record<string, unknown>;
  const pairs = old.node.items;
  if (pairs.length !== Object.keys(next).length) return null;
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const pair of pairs) {
    if (!isPair(pair) || !isScalar(pair.key) || typeof pair.key.value !== 'string' || !(pair.key.value in next))
      return null;
    const value = next[pair.key.value];
    if (isScalar(pair.value) && pair.value.value === value) continue;
    if (!isScalar(pair.value) || !pair.value.range || (typeof value !== 'number' && typeof value !== 'boolean'))
      return null;
    edits.push({ start: pair.value.range[0] - old.at, end: pair.value.range[1] - old.at, text: String(value) });
  }
  let body = old.body;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    body = body.slice(0, edit.start) + edit.text + body.slice(edit.end);
  return body;
}

/** One new entry as a block list item at `indent`, with `comment` at the end of its first line. */
function renderEntry(entry: unknown, indent: number, eol: string, comment: string): string {
  const [first, ...rest] = renderValue([entry], false, indent, eol).split(eol);
  return [`${first as string}${comment}`, ...rest].join(eol);
}

/** `value` as YAML text, as block YAML indented by `indent` columns, or as flow on one line. */
export function renderValue(value: unknown, flow: boolean, indent: number, eol: string): string {
  const doc = new Document(value);
  if (flow && isCollection(doc.contents)) doc.contents.flow = true;
  let text = doc.toString({ lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, '');
  if (!flow) text = text.split('\n').join(`\n${' '.repeat(indent)}`);
  return text.replace(/\n/g, eol);
}
