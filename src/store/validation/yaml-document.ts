/**
 * A YAML text read as a document that keeps its comments and positions, so that every problem can
 * say `line:column`: syntax errors as problems (never exceptions), the first node that would not
 * come out as plain JSON, and where a JSON Pointer (an AJV error's path) lands in the text.
 */
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

/** A problem at its place in the text. */
export interface YamlProblem {
  line: number;
  column: number;
  message: string;
}

export interface ParsedYaml {
  doc: Document;
  lines: LineCounter;
  problems: YamlProblem[];
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

/**
 * The first node that would not come out of toJS() as plain JSON, located: an alias to an anchor
 * that does not exist (toJS would throw without a position), an alias inside the node it refers
 * to (a cycle, which JSON cannot hold), a tagged value that is not a string, number, boolean or
 * null (`!!binary`, `!!timestamp`, `!!set`), a number JSON clients cannot hold exactly (beyond
 * 2^53, or .inf/.nan) and a key that is a list or a mapping.
 */
export function notPlainData(doc: Document, lines: LineCounter): YamlProblem | null {
  let found: YamlProblem | null = null;
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
export function locate(doc: Document, lines: LineCounter, pointer: string): { line: number; column: number } {
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
