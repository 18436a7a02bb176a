/**
 * One JSON file the relayer reads (a networks file `{"networks": [...]}`, or its `config.json`),
 * parsed as strictly as serde_json parses it, with every place in it locatable as line and column
 * so that each refusal names `file:line:column`. JSON.parse decides what is JSON; jsonc-parser's
 * tree (comments and trailing commas refused) gives the places, and shows the keys an object
 * holds twice, which serde refuses in a struct.
 */
import * as jsonc from 'jsonc-parser';

export interface Place {
  file: string;
  line: number;
  column: number;
}

/** A refusal: where, and why (one sentence). */
export interface Problem extends Place {
  message: string;
}

export interface RelayerSource {
  file: string;
  /** The parsed JSON; undefined when the text is not JSON (see `problems`). */
  json: unknown;
  problems: Problem[];
  /** Where the value at a JSON Pointer starts (the closest existing parent when it is absent). */
  at(pointer: string): Place;
}

const STRICT = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

export function readRelayerSource(file: string, text: string): RelayerSource {
  const errors: jsonc.ParseError[] = [];
  const root = jsonc.parseTree(text, errors, STRICT);
  const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((m) => (m.index ?? 0) + 1)];
  const place = (offset: number): Place => {
    let line = lineStarts.findLastIndex((start) => start <= offset);
    if (line < 0) line = 0;
    return { file, line: line + 1, column: offset - (lineStarts[line] ?? 0) + 1 };
  };
  const at = (pointer: string): Place => place(nodeAt(root, pointer)?.offset ?? 0);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const first = errors[0];
    const why = first ? jsonc.printParseErrorCode(first.error) : (err as Error).message.split(',')[0];
    return {
      file,
      json: undefined,
      problems: [{ ...place(first?.offset ?? 0), message: `not valid JSON (${why})` }],
      at,
    };
  }
  return {
    file,
    json,
    problems: duplicateKeys(root).map((offset) => ({
      ...place(offset),
      message: 'a key appears twice in one object; the relayer refuses it',
    })),
    at,
  };
}

/** The deepest node on the way to `pointer`. */
function nodeAt(root: jsonc.Node | undefined, pointer: string): jsonc.Node | undefined {
  let node = root;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    const next = node && jsonc.findNodeAtLocation(node, [node.type === 'array' ? Number(key) : key]);
    if (!next) return node;
    node = next;
  }
  return node;
}

/** Where each key that its object already holds appears again. */
function duplicateKeys(node: jsonc.Node | undefined): number[] {
  if (!node?.children) return [];
  const found: number[] = [];
  if (node.type === 'object') {
    const seen = new Set<unknown>();
    for (const property of node.children) {
      const key = property.children?.[0];
      if (seen.has(key?.value)) found.push(key?.offset ?? property.offset);
      seen.add(key?.value);
    }
  }
  return [...found, ...node.children.flatMap(duplicateKeys)];
}
