/**
 * One file's text -> the served record, or problems located at a line and column a person can
 * jump to. Positions below were checked by hand against the text of each row.
 */
import { expect } from 'chai';
import { etagOf, parseNetworkFile } from '../../../src/store/validation/network-file.js';
import { jsonOf, networkOf } from '../../../src/store/network-record.js';
import { OPEN_POLICY } from '../../../src/store/validation/url-rules.js';
import { networkYaml } from '../../helpers/fixtures.js';

const SEPOLIA = { id: 'evm:sepolia', family: 'evm', name: 'sepolia' };
const URLS = 'rpc_urls:\n  - https://a.example.com\n';

function problemsOf(text: string): Array<{ line: number; column: number; message: string }> {
  const outcome = parseNetworkFile(text, SEPOLIA, 'evm/sepolia.yaml', OPEN_POLICY);
  if (outcome.ok) throw new Error('expected the file to be invalid');
  return outcome.problems;
}

describe('store/network-file', () => {
  describe('a valid file', () => {
    const text = networkYaml({ extra: 'symbol: ETH\ncustom_field: {a: 1}' });
    const outcome = parseNetworkFile(text, SEPOLIA, 'evm/sepolia.yaml', OPEN_POLICY);

    it('becomes the wire view: id, name, network_type from the path, plain URLs at weight 100, other fields kept', () => {
      expect(outcome.ok).to.equal(true);
      if (!outcome.ok) return;
      const { record } = outcome;
      expect(networkOf(record)).to.deep.equal({
        id: 'evm:sepolia',
        name: 'sepolia',
        network_type: 'evm',
        rpc_urls: [
          { url: 'https://rpc.example.com', weight: 100 },
          { url: 'https://backup.example.com', weight: 30 },
        ],
        chain_id: 11155111,
        is_testnet: true,
        symbol: 'ETH',
        custom_field: { a: 1 },
      });
      expect(Object.keys(networkOf(record)).slice(0, 3)).to.deep.equal(['id', 'name', 'network_type']);
      expect(record.path).to.equal('evm/sepolia.yaml');
      expect(JSON.parse(jsonOf(record))).to.deep.equal(networkOf(record));
      expect(JSON.parse(record.body.toString())).to.deep.equal({ success: true, data: networkOf(record), error: null });
    });

    it('has a strong ETag over the exact bytes, so a comment-only edit changes it', () => {
      if (!outcome.ok) throw new Error('expected valid');
      expect(outcome.record.etag)
        .to.equal(etagOf(text))
        .and.match(/^"[A-Za-z0-9_-]+"$/);
      const again = parseNetworkFile(text, SEPOLIA, 'evm/sepolia.yaml', OPEN_POLICY);
      expect(again.ok && again.record.etag).to.equal(outcome.record.etag);
      const commented = parseNetworkFile(`${text}# a comment\n`, SEPOLIA, 'evm/sepolia.yaml', OPEN_POLICY);
      expect(commented.ok && commented.record.etag)
        .to.be.a('string')
        .and.not.equal(outcome.record.etag);
      expect(commented.ok && commented.record.body).to.equal(outcome.record.body);
    });

    it('accepts id, name and network_type when they equal what the path says', () => {
      const same = parseNetworkFile(
        `id: evm:sepolia\nname: sepolia\nnetwork_type: evm\n${URLS}`,
        SEPOLIA,
        'evm/sepolia.yaml',
        OPEN_POLICY,
      );
      expect(same.ok).to.equal(true);
    });
  });

  describe('problems and where they are', () => {
    const rows: Array<{ name: string; text: string; line: number; column: number; message: RegExp }> = [
      // YAML syntax
      {
        name: 'a nested compact mapping',
        text: `${URLS}chain_id: a: b\n`,
        line: 3,
        column: 11,
        message: /Nested mappings/,
      },
      {
        name: 'a duplicate key (the second one)',
        text: `${URLS}chain_id: 1\nchain_id: 2\n`,
        line: 4,
        column: 1,
        message: /unique/,
      },
      {
        name: 'a tab used as indentation',
        text: 'rpc_urls:\n\t- https://a.example.com\n',
        line: 2,
        column: 1,
        message: /Tabs/,
      },
      {
        name: 'two documents in one file',
        text: `${URLS}---\nchain_id: 1\n`,
        line: 3,
        column: 1,
        message: /multiple documents/,
      },
      {
        name: 'an alias to an anchor that does not exist',
        text: `${URLS}symbol: *nope\n`,
        line: 3,
        column: 9,
        message: /alias/i,
      },
      // Schema, located at the offending value
      {
        name: 'a weight above 100',
        text: '# c\nrpc_urls:\n  - https://a.example.com\n  - url: https://b.example.com\n    weight: 101\n',
        line: 5,
        column: 13,
        message: /rpc_urls\[1\]\.weight must be between 0 and 100/,
      },
      {
        name: 'chain_id not an integer',
        text: `${URLS}chain_id: abc\n`,
        line: 3,
        column: 11,
        message: /chain_id must be an integer/,
      },
      {
        name: 'an unknown key in a URL object',
        text: 'rpc_urls:\n  - url: https://a.example.com\n    weight: 5\n    note: x\n',
        line: 4,
        column: 11,
        message: /"note" is not allowed/,
      },
      {
        name: 'a URL entry that is a number',
        text: 'rpc_urls:\n  - 42\n',
        line: 2,
        column: 5,
        message: /URL string or an object/,
      },
      {
        name: 'rpc_urls missing (at the top of the mapping)',
        text: '# c\nchain_id: 1\n',
        line: 2,
        column: 1,
        message: /rpc_urls is required/,
      },
      { name: 'a top-level list', text: '- a\n- b\n', line: 1, column: 1, message: /must be an object/ },
      // Path-derived fields must not disagree with the path
      {
        name: 'id set to another network',
        text: `id: evm:other\n${URLS}`,
        line: 1,
        column: 5,
        message: /id is "evm:other" but the file's path says "evm:sepolia"/,
      },
      {
        name: 'name set to another name',
        text: `${URLS}name: mainnet\n`,
        line: 3,
        column: 7,
        message: /name is "mainnet"/,
      },
      {
        name: 'network_type set to another family',
        text: `${URLS}network_type: solana\n`,
        line: 3,
        column: 15,
        message: /network_type is "solana" but the file's path says "evm"/,
      },
      // URL rules
      {
        name: 'a URL listed twice',
        text: 'rpc_urls:\n  - https://a.example.com\n  - https://a.example.com/\n',
        line: 3,
        column: 5,
        message: /repeats rpc_urls\[0\]/,
      },
      {
        name: 'every endpoint disabled',
        text: 'rpc_urls:\n  - url: https://a.example.com\n    weight: 0\n',
        line: 2,
        column: 3,
        message: /weight above 0/,
      },
      {
        name: 'an ftp URL',
        text: 'rpc_urls:\n  - ftp://a.example.com\n',
        line: 2,
        column: 5,
        message: /http:\/\/ or https:\/\//,
      },
      {
        name: 'terminal escapes in a URL',
        text: 'rpc_urls:\n  - https://b.example.com\n  - "https://a.example.com/\\e[2J"\n',
        line: 3,
        column: 5,
        message: /rpc_urls\[1\] must not contain control characters.*U\+001B/,
      },
      {
        name: 'a NUL in a weighted URL',
        text: 'rpc_urls:\n  - url: "https://a.example.com/\\0"\n    weight: 5\n',
        line: 2,
        column: 10,
        message: /U\+0000/,
      },
      {
        name: 'a lone surrogate in a URL',
        text: 'rpc_urls:\n  - "https://a.example.com/\\ud800"\n',
        line: 2,
        column: 5,
        message: /lone UTF-16 surrogates.*U\+D800/,
      },
      // Shapes JSON cannot carry, located where they are
      {
        name: 'an alias inside its own anchor (a loop)',
        text: 'rpc_urls: ["https://a.example"]\nx: &x\n  y: *x\n',
        line: 3,
        column: 6,
        message: /inside the value it refers to/,
      },
      {
        name: 'a list that contains itself',
        text: `${URLS}a: &a [1, *a]\n`,
        line: 3,
        column: 11,
        message: /inside the value it refers to/,
      },
      {
        name: 'a !!binary value',
        text: `${URLS}a: !!binary aGVsbG8=\n`,
        line: 3,
        column: 13,
        message: /!!binary .*not a string, number/,
      },
      {
        name: 'a !!timestamp value',
        text: `${URLS}a: !!timestamp 2001-12-14\n`,
        line: 3,
        column: 16,
        message: /!!timestamp/,
      },
      { name: 'a !!set', text: `${URLS}a: !!set {x, y}\n`, line: 3, column: 10, message: /!!set is not allowed/ },
      { name: 'a !!omap', text: `${URLS}a: !!omap [x: 1]\n`, line: 3, column: 11, message: /!!omap is not allowed/ },
      {
        name: 'chain_id beyond 2^53 (JSON clients would round it)',
        text: `${URLS}chain_id: 9007199254740993\n`,
        line: 3,
        column: 11,
        message: /beyond 2\^53/,
      },
      {
        name: 'an infinite number',
        text: `${URLS}average_blocktime_ms: .inf\n`,
        line: 3,
        column: 23,
        message: /not a number JSON can carry/,
      },
      { name: 'not a number', text: `${URLS}x: .nan\n`, line: 3, column: 4, message: /not a number JSON can carry/ },
      {
        name: 'a key that is a list',
        text: `${URLS}? [a, b]\n: c\n`,
        line: 3,
        column: 3,
        message: /key must be a plain scalar/,
      },
      // Nothing to serve
      { name: 'an empty file', text: '', line: 1, column: 1, message: /empty/ },
      { name: 'a file of comments only', text: '# nothing yet\n', line: 1, column: 1, message: /empty/ },
      {
        name: 'an alias bomb (refused, not expanded)',
        text:
          'a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n' +
          URLS,
        line: 1,
        column: 1,
        message: /alias/i,
      },
    ];
    for (const row of rows) {
      it(`${row.name} -> ${row.line}:${row.column}`, () => {
        const [first] = problemsOf(row.text);
        expect(first, 'a problem').to.not.equal(undefined);
        expect(first?.message).to.match(row.message);
        expect({ line: first?.line, column: first?.column }).to.deep.equal({ line: row.line, column: row.column });
      });
    }

    it('serves a shared anchor and a field named __proto__ as plain data', () => {
      const outcome = parseNetworkFile(
        `defaults: &u [https://a.example.com]\nrpc_urls: *u\n__proto__: {polluted: true}\n`,
        SEPOLIA,
        'evm/sepolia.yaml',
        OPEN_POLICY,
      );
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
      const data = JSON.parse(jsonOf(outcome.record)) as Record<string, unknown>;
      expect(data.rpc_urls).to.deep.equal([{ url: 'https://a.example.com', weight: 100 }]);
      expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).to.deep.equal({ polluted: true });
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('reports every schema problem of a file, each at its own line', () => {
      const problems = problemsOf(
        'rpc_urls:\n  - url: https://a.example.com\n    weight: 101\nchain_id: 0\nis_testnet: maybe\n',
      );
      expect(problems.map((p) => p.line)).to.have.members([3, 4, 5]);
    });
  });
});
