/**
 * Splicing new values into YAML text: only the replaced value's bytes change.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'chai';
import { parseDocument } from 'yaml';
import { intendedData, rewriteTopLevel, spliceTopLevel } from '../../../src/store/edit/yaml-edit.js';

/** The edit as the writer makes it, with a plain read-back (the writer's also validates). */
function replaceTopLevel(
  text: string,
  doc: ReturnType<typeof parseDocument>,
  changes: Array<[string, unknown]>,
): string {
  const spliced = spliceTopLevel(text, doc, changes);
  if (
    spliced !== null &&
    isDeepStrictEqual(parseDocument(spliced).toJS(), intendedData(doc.toJS() as Record<string, unknown>, changes))
  )
    return spliced;
  return rewriteTopLevel(doc, changes);
}

const NEW = ['https://a.example.com', { url: 'https://b.example.com', weight: 5 }];

const ROWS: Array<{ title: string; before: string; after: string }> = [
  {
    title: 'block list, indented',
    before: '# c\nrpc_urls:\n  - https://old.example.com # gone with its entry\nchain_id: 1   # kept\n',
    after:
      '# c\nrpc_urls:\n  - https://a.example.com\n  - url: https://b.example.com\n    weight: 5\nchain_id: 1   # kept\n',
  },
  {
    title: 'block list, not indented, followed by a blank line and a comment',
    before: 'rpc_urls:\n- https://old.example.com\n\n# next\ntags: [a, b]\n',
    after: 'rpc_urls:\n- https://a.example.com\n- url: https://b.example.com\n  weight: 5\n\n# next\ntags: [a, b]\n',
  },
  {
    title: 'flow list on the key line stays flow',
    before: 'rpc_urls: [https://old.example.com]   # note\nchain_id: 1\n',
    after: 'rpc_urls: [https://a.example.com, {url: https://b.example.com, weight: 5}]   # note\nchain_id: 1\n',
  },
  {
    title: 'CRLF line endings are kept',
    before: 'rpc_urls:\r\n  - https://old.example.com\r\nchain_id: 1\r\n',
    after:
      'rpc_urls:\r\n  - https://a.example.com\r\n  - url: https://b.example.com\r\n    weight: 5\r\nchain_id: 1\r\n',
  },
  {
    title: 'last key of the file, no final newline',
    before: 'chain_id: 1\nrpc_urls:\n  - https://old.example.com',
    after: 'chain_id: 1\nrpc_urls:\n  - https://a.example.com\n  - url: https://b.example.com\n    weight: 5',
  },
];

describe('store/yaml-edit', () => {
  for (const row of ROWS) {
    it(`splices: ${row.title}`, () => {
      expect(replaceTopLevel(row.before, parseDocument(row.before), [['rpc_urls', NEW]])).to.equal(row.after);
    });
  }

  it('falls back to the Document API for a key the file does not have, keeping comments', () => {
    const before = '# head\nchain_id: 1 # one\n';
    const after = replaceTopLevel(before, parseDocument(before), [['rpc_urls', NEW]]);
    expect(after).to.include('# head').and.include('# one');
    expect(parseDocument(after).toJS()).to.deep.equal({ chain_id: 1, rpc_urls: NEW });
  });
});
