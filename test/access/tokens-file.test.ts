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
  const timed = (text: string): number => {
    const started = performance.now();
    const { tokens, problems } = parseTokensFile(text);
    expect(problems).to.deep.equal([]);
    expect(tokens.length).to.be.greaterThan(0);
    return performance.now() - started;
  };
  // Linear: eight times the entries take about eight times as long. The old quadratic check took
  // about 50 times as long at these sizes (60,000 entries: three minutes); 16 leaves room for a noisy neighbour.
  it('parses in linear time: eight times the entries take less than sixteen times as long (the duplicate checks are sets)', function () {
    this.timeout(180_000);
    const small = fileOfSize(4_000);
    const large = fileOfSize(32_000);
    timed(small); // warm the parser up, so the first measure is not the JIT's
    // The best of two of each: a neighbour's burst on a shared machine slows one run, not both.
    const t1 = Math.min(timed(small), timed(small));
    const t8 = Math.min(timed(large), timed(large));
    expect(t8, `4,000 entries: ${t1.toFixed(0)} ms, 32,000: ${t8.toFixed(0)} ms`).to.be.lessThan(16 * t1);
  });
});
