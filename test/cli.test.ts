/**
 * `netcfg validate` and `netcfg serve --help`, run as a user runs them: the built CLI in a child
 * process, on real folders.
 */
import { execFile, execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../src/paths.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from './helpers/fixtures.js';

const run = promisify(execFile);
const CLI = path.join(PROJECT_ROOT, 'dist', 'src', 'cli.js');

async function netcfg(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('cli', () => {
  let root: string;
  afterEach(() => removeDir(root));

  it('validate: a good folder exits 0 with a summary', async () => {
    root = makeConfigDir(standardFiles());
    const { code, stdout } = await netcfg(['validate', root]);
    expect(code).to.equal(0);
    expect(stdout.trim()).to.equal(`netcfg: 3 networks valid in ${root}`);
  });

  it('validate: every problem as path:line:column: message, a summary, exit 1', async () => {
    root = makeConfigDir({
      ...standardFiles(),
      'evm/broken.yaml': 'rpc_urls:\n  - https://a.example.com\nchain_id: [\n',
      'evm/schema.yaml': networkYaml({ rpc_urls: [{ url: 'https://a.example.com', weight: 101 }] }),
      'evm/sepolia.yml': networkYaml(),
      'Bad Name/x.yaml': networkYaml(),
      'notes.txt': 'hello',
    });
    const { code, stdout } = await netcfg(['validate', root]);
    expect(code).to.equal(1);
    const lines = stdout.trim().split('\n');
    expect(lines).to.include(
      `${path.join(root, 'evm/schema.yaml')}:4:13: rpc_urls[0].weight must be between 0 and 100.`,
    );
    expect(lines.some((l) => l.startsWith(`${path.join(root, 'evm/broken.yaml')}:`))).to.equal(true);
    expect(
      lines.some((l) => l.startsWith(`${path.join(root, 'evm/sepolia.yml')}:1:1: duplicate of evm/sepolia.yaml`)),
    ).to.equal(true);
    expect(lines.some((l) => l.startsWith(`${path.join(root, 'Bad Name/x.yaml')}:1:1: family folder`))).to.equal(true);
    expect(lines.some((l) => l.startsWith(`${path.join(root, 'notes.txt')}:1:1:`))).to.equal(true);
    for (const line of lines.slice(0, -1)) expect(line).to.match(/^.+:\d+:\d+: .+$/);
    expect(lines.at(-1)).to.equal(`netcfg: 5 problem(s) in 5 file(s); 3 networks valid in ${root}`);
  });

  it('validate: an alias loop, a FIFO and a link to a device are report lines, not a stack trace', async () => {
    root = makeConfigDir({ ...standardFiles(), 'evm/cycle.yaml': 'rpc_urls: ["https://a.example"]\nx: &x\n  y: *x\n' });
    execFileSync('mkfifo', [path.join(root, 'evm/fifo.yaml')]);
    symlinkSync('/dev/zero', path.join(root, 'evm/zero.yaml'));
    const { code, stdout, stderr } = await netcfg(['validate', root]);
    expect(stderr).to.equal('');
    expect(code).to.equal(1);
    const lines = stdout.trim().split('\n');
    expect(lines).to.include(
      `${path.join(root, 'evm/cycle.yaml')}:3:6: alias *x is inside the value it refers to (&x), a loop that JSON cannot hold`,
    );
    expect(lines).to.include(`${path.join(root, 'evm/fifo.yaml')}:1:1: not a regular file`);
    expect(lines.some((l) => l.startsWith(`${path.join(root, 'evm/zero.yaml')}:1:1: symbolic link`))).to.equal(true);
    expect(lines.at(-1)).to.equal(`netcfg: 3 problem(s) in 3 file(s); 3 networks valid in ${root}`);
  });

  it('validate --format json, and the URL policy from the environment', async () => {
    root = makeConfigDir({ 'evm/anvil.yaml': networkYaml({ rpc_urls: ['http://127.0.0.1:8545'] }) });
    expect((await netcfg(['validate', root])).code).to.equal(0);
    const { code, stdout } = await netcfg(['validate', root, '--format', 'json'], { RPC_BLOCK_PRIVATE_IPS: 'true' });
    expect(code).to.equal(1);
    const report = JSON.parse(stdout) as {
      ok: boolean;
      networks: number;
      problems: Array<{ path: string; line: number; column: number; error: string }>;
    };
    expect(report.ok).to.equal(false);
    expect(report.problems).to.have.length(1);
    expect(report.problems[0]).to.include({ path: path.join(root, 'evm/anvil.yaml'), line: 3, column: 5 });
    expect(report.problems[0]!.error).to.include('RPC_BLOCK_PRIVATE_IPS');
  });

  it('validate: an unset secret is a warning where CI has no secrets, a problem with --require-secrets; a set one is judged by its value', async () => {
    root = makeConfigDir({
      'evm/keyed.yaml':
        'rpc_urls:\n  - https://public.example.com\n  - url:\n      type: env\n      value: KEYED_RPC_URL\n    weight: 50\nchain_id: 1\n',
    });
    const allow = { SECRET_REFS_ALLOWED: 'evm:*=KEYED_*' };
    const notAllowed =
      `${path.join(root, 'evm/keyed.yaml')}:4:7: rpc_urls[1].url names the environment variable ` +
      `KEYED_RPC_URL, which evm:keyed may not reference`;
    const cases: Array<[string, string[], Record<string, string>, number, string]> = [
      [
        'unset, warning',
        [],
        allow,
        0,
        `${path.join(root, 'evm/keyed.yaml')}:4:7: warning: rpc_urls[1].url names the environment variable KEYED_RPC_URL`,
      ],
      [
        'unset, required',
        ['--require-secrets'],
        allow,
        1,
        `${path.join(root, 'evm/keyed.yaml')}:4:7: rpc_urls[1].url names the environment variable KEYED_RPC_URL`,
      ],
      [
        'set, a URL',
        ['--require-secrets'],
        { ...allow, KEYED_RPC_URL: 'https://eth.example.com/v2/k3y' },
        0,
        'netcfg: 1 networks valid',
      ],
      [
        'set, not a URL',
        ['--require-secrets'],
        { ...allow, KEYED_RPC_URL: 'k3y-not-a-url' },
        1,
        'rpc_urls[1].url (the value of KEYED_RPC_URL) is not a valid absolute URL',
      ],
      ['not allowed, unset: a problem even where CI has no secrets', [], {}, 1, notAllowed],
      ['not allowed, set: the same sentence', [], { KEYED_RPC_URL: 'k3y-not-a-url' }, 1, notAllowed],
      [
        'allowed by --secret-refs-allowed',
        ['--secret-refs-allowed', 'evm:key*=KEYED_*'],
        { KEYED_RPC_URL: 'https://eth.example.com/v2/k3y' },
        0,
        'netcfg: 1 networks valid',
      ],
    ];
    for (const [what, flags, env, code, line] of cases) {
      const out = await netcfg(['validate', root, ...flags], env);
      expect(out.code, what).to.equal(code);
      expect(out.stdout, what).to.include(line).and.not.include('k3y');
    }
  });

  it('validate: a missing folder is a problem, not a crash', async () => {
    root = makeConfigDir();
    const { code, stdout } = await netcfg(['validate', path.join(root, 'nope')]);
    expect(code).to.equal(1);
    expect(stdout).to.include('cannot be read: ENOENT');
  });

  it('the shipped config folder is valid', async () => {
    root = makeConfigDir();
    const { code, stdout } = await netcfg(['validate', path.join(PROJECT_ROOT, 'config', 'networks')]);
    expect(code, stdout).to.equal(0);
  });

  it('serve --help lists every flag, and a bad flag value is refused with its reason', async () => {
    root = makeConfigDir();
    const help = await netcfg(['serve', '--help']);
    for (const flag of [
      '--host',
      '--port',
      '--config-dir',
      '--log-level',
      '--require-if-match',
      '--block-private-ips',
      '--allowed-hosts',
      '--watch-poll',
      '--git-commit',
    ]) {
      expect(help.stdout).to.include(flag);
    }
    const bad = await netcfg(['serve', '--port', 'x', '--config-dir', root]);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('PORT must be a whole number');
  });
});
