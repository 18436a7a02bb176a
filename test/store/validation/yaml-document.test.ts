/**
 * A YAML text read with its positions: where a JSON Pointer lands (the deepest node that exists on
 * its path), and a syntax error as a located problem rather than an exception. What JSON cannot
 * hold is tested through whole network files (network-file.test.ts), where readiness shows it.
 */
import { expect } from 'chai';
import { parseYaml, positionIn } from '../../../src/store/validation/yaml-document.js';

const TEXT = [
  'chain_id: 1', // line 1
  'rpc_urls:', // line 2
  '  - https://a.example.com', // line 3
  '  - url: https://b.example.com', // line 4
  '    weight: 50', // line 5
  'tags: [x, "a/b"]', // line 6
].join('\n');

describe('store/yaml-document', () => {
  const rows: Array<{ pointer: string; line: number; column: number }> = [
    { pointer: '', line: 1, column: 1 },
    { pointer: '/chain_id', line: 1, column: 11 },
    { pointer: '/rpc_urls/0', line: 3, column: 5 },
    { pointer: '/rpc_urls/1/weight', line: 5, column: 13 },
    // A pointer past what exists stops at the deepest node on its path.
    { pointer: '/rpc_urls/1/missing', line: 4, column: 5 },
    { pointer: '/rpc_urls/9', line: 3, column: 3 },
    { pointer: '/tags/1', line: 6, column: 11 },
  ];
  for (const row of rows) {
    it(`${row.pointer || '(the root)'} -> ${row.line}:${row.column}`, () => {
      expect(positionIn(TEXT, row.pointer)).to.deep.equal({ line: row.line, column: row.column });
    });
  }

  it('gives a syntax error as a problem at its place, keeping the message to its first line', () => {
    const { problems } = parseYaml('a: 1\nb: [unclosed\n');
    expect(problems).to.have.length.greaterThan(0);
    const [first] = problems;
    expect(first?.line).to.be.a('number');
    expect(first?.message).to.not.include('\n');
    expect(first?.message).to.not.match(/at line \d+, column \d+/);
  });

  it('reads a clean text with no problems and keeps its comments', () => {
    const { doc, problems } = parseYaml('# kept\na: 1 # inline\n');
    expect(problems).to.deep.equal([]);
    expect(doc.toString()).to.include('# inline');
  });
});
