/**
 * Replaces top-level values of a YAML file by splicing the text: only the bytes of the replaced
 * values change (of a block list, only its entries that changed: list-splice.ts), so every other
 * line (its quoting, indentation, alignment, comments, line endings)
 * stays byte for byte and `git diff` shows exactly the change. A value is rendered as yaml prints
 * it, in the form the client sent (a string stays a plain scalar, an object a
 * mapping) and in the old value's style (block or flow). Where splicing is not possible (a new
 * key, a flow mapping at the top) the edit falls back to yaml's Document API, which keeps
 * comments but may reformat other lines.
 */
import { isCollection, isMap, isPair, isScalar, type Document, type Node } from 'yaml';
import { renderValue, spliceList } from './list-splice.js';

/**
 * The file's text with each `[key, value]` replaced by splicing, or null where that is not possible.
 * The caller reads the result back and keeps it only if it reads as intendedData(); otherwise it
 * edits through rewriteTopLevel().
 */
export function spliceTopLevel(text: string, doc: Document, changes: Array<[string, unknown]>): string | null {
  const root = doc.contents;
  if (!isMap(root) || root.flow) return null;
  const edits: Array<{ start: number; end: number; replacement: string }> = [];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  for (const [key, value] of changes) {
    const pair = root.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
    const old = pair?.value as Node | null | undefined;
    if (!old?.range) return null;
    const [start, end] = old.range;
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const onKeyLine =
      text.slice(lineStart, start).trim() !== '' && !text.slice(lineStart, start).trim().startsWith('-');
    // A block collection must start on its own line: if the old value sat on the key's line
    // (a scalar or a flow list), the new one is written there in flow style.
    const flow = (isCollection(old) && old.flow === true) || onKeyLine;
    // A block value's range ends after its last line break; keep that break.
    const trailing = /\r?\n$/.exec(text.slice(start, end))?.[0] ?? '';
    const entries = !flow && Array.isArray(value) ? spliceList(text, old, value, start - lineStart, eol) : null;
    edits.push({ start, end, replacement: (entries ?? renderValue(value, flow, start - lineStart, eol)) + trailing });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.replacement + out.slice(edit.end);
  }
  return out;
}

/** The data an edit is meant to leave: the document's (`data`, its toJS()), with each `[key, value]` replaced. */
export function intendedData(
  data: Record<string, unknown>,
  changes: Array<[string, unknown]>,
): Record<string, unknown> {
  return { ...data, ...Object.fromEntries(changes) };
}

/** The edit through yaml's Document API: keeps comments, but may reformat other lines. */
export function rewriteTopLevel(doc: Document, changes: Array<[string, unknown]>): string {
  const copy = doc.clone();
  for (const [key, value] of changes) copy.set(key, copy.createNode(value));
  return copy.toString({ lineWidth: 0 });
}
