/**
 * `netcfg token new`, run as a user runs it (the built CLI in a child process): the printed entry's
 * hash is the printed token's, the entry is what API_TOKENS_FILE accepts, and no two runs print the
 * same token.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/paths.js';
import { parseTokensFile } from '../../src/access/tokens-file.js';

const run = promisify(execFile);
const CLI = path.join(PROJECT_ROOT, 'dist', 'src', 'cli.js');

async function tokenNew(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'token', 'new', ...args], {
      env: { PATH: process.env.PATH ?? '' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('netcfg token new (built CLI)', () => {
  it('prints a prefixed token of 32 random bytes once, and the entry holding its SHA-256 that the tokens file accepts', async () => {
    const { code, stdout } = await tokenNew([
      '--name',
      'relayer-eu',
      '--role',
      'read',
      '--networks',
      'evm:*',
      'solana:devnet',
    ]);
    expect(code).to.equal(0);
    const token = /^(ncfg_[A-Za-z0-9_-]{43})$/m.exec(stdout)?.[1] as string;
    expect(token, stdout).to.be.a('string');
    const entry = stdout.slice(stdout.indexOf('  - name:'));
    const { tokens, problems } = parseTokensFile(`tokens:\n${entry}`);
    expect(problems).to.deep.equal([]);
    expect(tokens).to.deep.equal([
      {
        name: 'relayer-eu',
        sha256: createHash('sha256').update(token).digest('hex'),
        role: 'read',
        networks: ['evm:*', 'solana:devnet'],
        revealSecrets: false,
        expires: null,
      },
    ]);
  });

  it('accepts the propose role, and the tokens file takes its entry', async () => {
    const { code, stdout, stderr } = await tokenNew(['--name', 'proposer', '--role', 'propose']);
    expect(code, stderr).to.equal(0);
    const { tokens, problems } = parseTokensFile(`tokens:\n${stdout.slice(stdout.indexOf('  - name:'))}`);
    expect(problems).to.deep.equal([]);
    expect(tokens[0]?.role).to.equal('propose');
  });

  it('never prints the same token twice', async () => {
    const tokens = await Promise.all(
      [1, 2, 3].map(async () => /^ncfg_\S+$/m.exec((await tokenNew(['--name', 'x', '--role', 'write'])).stdout)?.[0]),
    );
    expect(new Set(tokens).size).to.equal(3);
  });

  const REFUSED: Array<[string[], string]> = [
    [['--name', 'Bad Name', '--role', 'read'], 'name must be lower-case'],
    [['--name', 'x', '--role', 'root'], "argument 'root' is invalid"],
    [['--name', 'x', '--role', 'read', '--networks', 'evm'], 'networks must be a non-empty list'],
  ];
  for (const [args, expected] of REFUSED) {
    it(`refuses ${args.join(' ')}, printing no token`, async () => {
      const { code, stdout, stderr } = await tokenNew(args);
      expect(code).to.not.equal(0);
      expect(stderr).to.include(expected);
      expect(stdout).to.not.include('ncfg_');
    });
  }
});
