/**
 * API_TOKENS_FILE as a table: what a good file gives, and each problem at its line and column.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { parseTokensFile } from '../../src/access/tokens-file.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

describe('access/tokens-file', () => {
  it('a good file: each token with its role, scope, reveal and expiry (a day stays a string)', () => {
    const { tokens, problems } = parseTokensFile(
      `tokens:\n  - name: relayer-eu\n    sha256: "${SHA_A}"\n    role: read\n    networks: ["evm:*"]\n` +
        `    expires: 2027-06-30\n  - name: ops-alice\n    sha256: ${SHA_B}\n    role: write\n` +
        `    reveal_secrets: true\n`,
    );
    expect(problems).to.deep.equal([]);
    expect(tokens).to.deep.equal([
      {
        name: 'relayer-eu',
        sha256: SHA_A,
        role: 'read',
        networks: ['evm:*'],
        revealSecrets: false,
        expires: '2027-06-30',
      },
      { name: 'ops-alice', sha256: SHA_B, role: 'write', networks: null, revealSecrets: true, expires: null },
    ]);
  });

  const entry = (extra: string) => `tokens:\n  - name: t\n    sha256: "${SHA_A}"\n    role: read\n${extra}`;
  const BAD: Array<[string, string, string]> = [
    ['no tokens list', 'token: []\n', '1:1: the file needs a list `tokens:`'],
    [
      'the token itself instead of its hash',
      entry('    token: ncfg_abc\n'),
      '5:5: this key is not a setting of a token',
    ],
    [
      'a hash that is not 64 hex digits',
      `tokens:\n  - name: t\n    sha256: "ABC"\n    role: read\n`,
      '3:13: sha256 must be the 64 lower-case hex digits',
    ],
    [
      'an unknown role',
      `tokens:\n  - name: t\n    sha256: "${SHA_A}"\n    role: root\n`,
      '4:11: role must be one of read, propose, write, admin',
    ],
    [
      'a name used twice',
      `${entry('')}  - name: t\n    sha256: "${SHA_B}"\n    role: read\n`,
      '5:11: this name is used by another token too',
    ],
    [
      'one hash for two names',
      `${entry('')}  - name: u\n    sha256: "${SHA_A}"\n    role: read\n`,
      "6:13: this sha256 is another token's too",
    ],
    ['a scope that is not a glob of ids', entry('    networks: [evm]\n'), '5:15: networks must be a non-empty list'],
    ['an expiry that is no day', entry('    expires: next year\n'), '5:14: expires must be a day'],
    [
      'reveal_secrets that is not a flag',
      entry('    reveal_secrets: "yes"\n'),
      '5:21: reveal_secrets must be true or false',
    ],
    ['YAML that does not parse', 'tokens:\n  - name: [\n', '3:1:'],
  ];
  for (const [name, text, expected] of BAD) {
    it(`refuses ${name}, at its line and column, and keeps no token of the file`, () => {
      const { tokens, problems } = parseTokensFile(text);
      expect(tokens).to.deep.equal([]);
      expect(problems.map((p) => `${p.line}:${p.column}: ${p.message}`).join('\n')).to.include(expected);
    });
  }

  /** A file of `n` good tokens (each hash distinct), as `netcfg token new` would write them. */
  const fileOfSize = (n: number): string => {
    const lines = ['tokens:'];
    for (let i = 0; i < n; i++)
      lines.push(
        `  - name: t${i}\n    sha256: "${createHash('sha256').update(`t${i}`).digest('hex')}"\n    role: read`,
      );
    return `${lines.join('\n')}\n`;
  };
  // How fast is make bench's (tokens-parse: 32,000 entries against 4,000, at most 16x): a time here is a flake on a
  // loaded machine. What is checked here is that a file of tens of thousands parses whole, and that a duplicate at its
  // very end is still found; mocha's timeout bounds a hang (the old array scans took three minutes at 60,000).
  it('32,000 entries parse whole; a duplicate name and digest at the end are found, at their lines', function () {
    const text = fileOfSize(32_000);
    const whole = parseTokensFile(text);
    expect(whole.problems).to.deep.equal([]);
    expect(whole.tokens).to.have.length(32_000);
    const again = `${text}  - name: t0\n    sha256: "${createHash('sha256').update('t0').digest('hex')}"\n    role: read\n`;
    const { problems } = parseTokensFile(again);
    expect(problems.map((p) => `${p.line}: ${p.message}`)).to.deep.equal([
      '96002: this name is used by another token too',
      "96003: this sha256 is another token's too: one token, one name",
    ]);
  });
});
