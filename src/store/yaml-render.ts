/**
 * A new value as YAML text, for splicing into a file (yaml-edit.ts). yaml's Document API renders
 * any value, but building a Document and printing it is ~50 us per PATCH (a sixth of a PATCH's
 * YAML work, bench/README.md) for what is almost always a short list of URLs. So the common
 * shapes (strings that need no quoting, integers, lists of them, flat mappings of them, as
 * rpc_urls entries are) are written directly, and anything else goes to yaml. The direct text is
 * the text yaml would print, character for character: test/store/yaml-render.test.ts holds the
 * two against each other, and the writer still parses the spliced file back and compares it with
 * the intended data before anything is written.
 */
import { Document, isCollection } from 'yaml';

/**
 * A string yaml prints plain (unquoted) in block and in flow context alike: starts with a letter,
 * no spaces, none of the flow indicators `,[]{}`, no `#`, quote or `:` at its end, and not one of
 * the words the core schema reads as something else (true, false, null). Conservative by design:
 * a string outside it is simply rendered by yaml.
 */
const PLAIN = /^[A-Za-z][A-Za-z0-9._~/?&=%+@$()*;:-]*$/;
const NOT_STRINGS = new Set(['true', 'false', 'null']);

function plainScalar(value: unknown): string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : null;
  if (typeof value !== 'string' || !PLAIN.test(value) || value.endsWith(':')) return null;
  return NOT_STRINGS.has(value.toLowerCase()) ? null : value;
}

/** The `key: value` entries of a flat mapping of plain scalars, or null. */
function plainEntries(value: unknown): string[] | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const k = plainScalar(key);
    const v = plainScalar(item);
    if (k === null || v === null) return null;
    entries.push(`${k}: ${v}`);
  }
  return entries.length > 0 ? entries : null;
}

/** The direct rendering of the common shapes, or null when yaml must do it. */
export function renderPlain(value: unknown, flow: boolean, indent: number, eol: string): string | null {
  const scalar = plainScalar(value);
  if (scalar !== null) return scalar;
  if (!Array.isArray(value)) return null;
  if (value.length === 0) return '[]';
  const items: string[] = [];
  for (const item of value) {
    const one = plainScalar(item);
    if (one !== null) {
      items.push(flow ? one : `- ${one}`);
      continue;
    }
    const entries = plainEntries(item);
    if (entries === null) return null;
    items.push(flow ? `{${entries.join(', ')}}` : `- ${entries.join(`${eol}${' '.repeat(indent + 2)}`)}`);
  }
  return flow ? `[${items.join(', ')}]` : items.join(`${eol}${' '.repeat(indent)}`);
}

/** Renders `value` with yaml, as block YAML indented by `indent` columns, or as flow on one line. */
export function renderWithYaml(value: unknown, flow: boolean, indent: number, eol: string): string {
  const doc = new Document(value);
  if (flow && isCollection(doc.contents)) doc.contents.flow = true;
  let text = doc.toString({ lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, '');
  if (!flow) text = text.split('\n').join(`\n${' '.repeat(indent)}`);
  return text.replace(/\n/g, eol);
}

/** `value` as YAML text in the given style: directly when it can, through yaml otherwise. */
export function renderValue(value: unknown, flow: boolean, indent: number, eol: string): string {
  return renderPlain(value, flow, indent, eol) ?? renderWithYaml(value, flow, indent, eol);
}
