/**
 * `netcfg export relayer --out DIR` cannot break the relayer it feeds: the built CLI in a child
 * process, on real temp folders. The relayer loads every `*.json` in its folder (extension in any
 * case) and refuses to start on a network defined twice, so a `*.json` netcfg did not write refuses
 * the export (or `--replace` renames it aside); a network with secret references is left out unless
 * asked for; `--strict` and an unset variable under `--resolve-secrets` write nothing.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/paths.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';

const run = promisify(execFile);
const CLI = path.join(PROJECT_ROOT, 'dist', 'src', 'cli.js');

async function netcfg(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // Every test here may reference KEYED_*: SECRET_REFS_ALLOWED is the operator's allowance, not what is tested.
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', SECRET_REFS_ALLOWED: 'evm:*=KEYED_*', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const PLAIN = 'rpc_urls: [https://plain.example.com]\nchain_id: 5\nrequired_confirmations: 1\nsymbol: ETH\n';
const KEYED =
  'rpc_urls:\n  - type: env\n    value: KEYED_URL\n  - url: https://public.example.com\n    weight: 5\n' +
  'chain_id: 1\nrequired_confirmations: 1\nsymbol: ETH\n';
const SECRET = 'https://eth.example.com/v2/k3y';
const RELAYER_NETWORK = {
  type: 'evm',
  network: 'plain',
  chain_id: 5,
  required_confirmations: 1,
  symbol: 'ETH',
  rpc_urls: ['https://x.example.com'],
};
const RELAYER_OWN = `${JSON.stringify({ networks: [RELAYER_NETWORK] })}\n`;

/** Each file of `dir` (names and bytes), to prove nothing changed. */
const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => {
        const file = path.join(dir, name);
        return [name, statSync(file).isFile() ? readFileSync(file, 'utf8') : '<dir>'];
      }),
  );
/** What the relayer would load from `dir`: each file whose extension is json in any case. */
const loaded = (dir: string): string[] =>
  readdirSync(dir)
    .filter((n) => /.\.json$/i.test(n) && statSync(path.join(dir, n)).isFile())
    .sort();
const networksIn = (dir: string, file: string): string[] =>
  (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { networks: Array<{ network: string }> }).networks.map(
    (n) => n.network,
  );

describe('netcfg export relayer: an export that cannot break the relayer (built CLI, real folders)', () => {
  let config: string;
  let out: string;
  beforeEach(() => {
    config = makeConfigDir({ 'evm/plain.yaml': PLAIN, 'evm/keyed.yaml': KEYED });
    out = makeConfigDir({});
  });
  afterEach(() => {
    removeDir(config);
    removeDir(out);
  });

  const FOREIGN: Array<[string, Record<string, string>]> = [
    ["the relayer's own evm.json", { 'evm.json': RELAYER_OWN }],
    ['NETS.JSON in upper case', { 'NETS.JSON': RELAYER_OWN }],
    [
      'both, beside files the relayer does not load',
      {
        'evm.json': RELAYER_OWN,
        'NETS.JSON': RELAYER_OWN,
        'notes.txt': 'x',
        '.json': 'x',
        'dir.json/a.json': RELAYER_OWN,
      },
    ],
  ];
  for (const [what, files] of FOREIGN) {
    it(`refuses ${what}: exit 1, each named, nothing written; --replace renames them aside, nothing deleted`, async () => {
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
        writeFileSync(path.join(out, rel), text);
      }
      const foreign = Object.keys(files).filter((n) => /.\.json$/i.test(n) && !n.includes('/'));
      const before = snapshot(out);
      const refused = await netcfg(['export', 'relayer', config, '--out', out]);
      expect(refused.code).to.equal(1);
      for (const name of foreign)
        expect(refused.stderr).to.include(`${path.join(out, name)}: the relayer would load it beside netcfg's files`);
      expect(refused.stderr).to.include('nothing was written');
      expect(snapshot(out)).to.deep.equal(before);

      const replaced = await netcfg(['export', 'relayer', config, '--out', out, '--replace']);
      expect(replaced.code, replaced.stderr).to.equal(0);
      expect(loaded(out), "the relayer loads netcfg's files only").to.deep.equal(['evm.json']);
      expect(networksIn(out, 'evm.json')).to.deep.equal(['plain']);
      for (const name of foreign) {
        const aside = readdirSync(out).filter((n) => n.startsWith(`${name}.replaced-by-netcfg-`));
        expect(aside, name).to.have.length(1);
        expect(readFileSync(path.join(out, aside[0] as string), 'utf8'), 'kept whole').to.equal(files[name]);
        expect(replaced.stderr).to.include(
          `renamed ${path.join(out, name)} to ${path.join(out, aside[0] as string)}; the relayer no longer loads it`,
        );
      }
      for (const name of Object.keys(files).filter((n) => !foreign.includes(n)))
        expect(readFileSync(path.join(out, name), 'utf8'), name).to.equal(files[name]);
    });
  }

  it('replaces its own files on the next run, but refuses one edited since it wrote it', async () => {
    expect((await netcfg(['export', 'relayer', config, '--out', out])).code).to.equal(0);
    writeFileSync(path.join(config, 'evm', 'more.yaml'), PLAIN);
    const again = await netcfg(['export', 'relayer', config, '--out', out]);
    expect(again.code, again.stderr).to.equal(0);
    expect(networksIn(out, 'evm.json')).to.deep.equal(['more', 'plain']);
    mkdirSync(path.join(config, 'solana'));
    writeFileSync(path.join(config, 'solana', 'devnet.yaml'), 'rpc_urls: [https://sol.example.com]\n');
    expect((await netcfg(['export', 'relayer', config, '--out', out])).code).to.equal(0);
    rmSync(path.join(config, 'solana', 'devnet.yaml'));
    expect((await netcfg(['export', 'relayer', config, '--out', out])).code).to.equal(0);
    expect(networksIn(out, 'solana.json'), 'its own file of a type with no network now loads none').to.deep.equal([]);
    writeFileSync(path.join(out, 'evm.json'), RELAYER_OWN);
    const edited = await netcfg(['export', 'relayer', config, '--out', out]);
    expect(edited.code).to.equal(1);
    expect(edited.stderr).to.include(
      `${path.join(out, 'evm.json')}: the relayer would load it beside netcfg's files (it changed since netcfg wrote it)`,
    );
    expect(readFileSync(path.join(out, 'evm.json'), 'utf8')).to.equal(RELAYER_OWN);
  });

  // [what, flags, environment, exit code, evm.json written (its networks, or null: nothing written), keyed's first rpc_url, stderr]
  const SECRETS: Array<[string, string[], Record<string, string>, number, string[] | null, unknown, string]> = [
    [
      'default, variable set',
      [],
      { KEYED_URL: SECRET },
      0,
      ['plain'],
      undefined,
      'evm:keyed: left out; its rpc_urls hold secret references to KEYED_URL (--resolve-secrets writes their values for relayer v1.8, --keep-references keeps',
    ],
    [
      'default, variable unset',
      [],
      {},
      0,
      ['plain'],
      undefined,
      "evm/keyed.yaml: left out; its rpc_urls hold secret references to KEYED_URL, not set in netcfg's environment",
    ],
    ['--resolve-secrets', ['--resolve-secrets'], { KEYED_URL: SECRET }, 0, ['keyed', 'plain'], SECRET, ''],
    [
      '--resolve-secrets, variable unset',
      ['--resolve-secrets'],
      {},
      1,
      null,
      undefined,
      'KEYED_URL is not set, and --resolve-secrets needs its value',
    ],
    [
      '--keep-references',
      ['--keep-references'],
      { KEYED_URL: SECRET },
      0,
      ['keyed', 'plain'],
      { type: 'env', value: 'KEYED_URL' },
      '',
    ],
    [
      '--strict, a reference left out',
      ['--strict'],
      { KEYED_URL: SECRET },
      1,
      null,
      undefined,
      '--strict: 1 thing(s) left out',
    ],
    [
      '--strict, nothing left out',
      ['--strict', '--keep-references'],
      { KEYED_URL: SECRET },
      0,
      ['keyed', 'plain'],
      { type: 'env', value: 'KEYED_URL' },
      '',
    ],
  ];
  for (const [what, flags, env, code, written, first, stderr] of SECRETS) {
    it(`secret references, ${what}: exit ${code}${written ? '' : ', nothing written'}`, async () => {
      const result = await netcfg(['export', 'relayer', config, '--out', out, ...flags], env);
      expect(result.code, result.stderr).to.equal(code);
      expect(result.stderr).to.include(stderr);
      if (code === 1) expect(result.stderr).to.include('nothing was written');
      if (written === null) {
        expect(readdirSync(out)).to.deep.equal([]);
        return;
      }
      expect(networksIn(out, 'evm.json')).to.deep.equal(written);
      const evm = JSON.parse(readFileSync(path.join(out, 'evm.json'), 'utf8')) as {
        networks: Array<{ network: string; rpc_urls: unknown[] }>;
      };
      expect(evm.networks.find((n) => n.network === 'keyed')?.rpc_urls[0]).to.deep.equal(first);
      if (first !== SECRET) expect(JSON.stringify(snapshot(out))).to.not.include('k3y');
    });
  }

  it('--out naming a file: exit 1, the file untouched, with or without --replace', async () => {
    const file = path.join(out, 'networks');
    writeFileSync(file, 'not a folder');
    for (const flags of [[], ['--replace']]) {
      const result = await netcfg(['export', 'relayer', config, '--out', file, ...flags]);
      expect(result.code, flags.join(' ')).to.equal(1);
      expect(result.stderr).to.include(`${file}: not a folder`).and.include('nothing was written');
      expect(readFileSync(file, 'utf8')).to.equal('not a folder');
    }
  });

  it('--out -: the same refusals print no document', async () => {
    const cases: Array<[string[], number, string[]]> = [
      [[], 0, ['plain']],
      [['--strict'], 1, []],
      [['--resolve-secrets'], 1, []],
    ];
    for (const [flags, code, networks] of cases) {
      const result = await netcfg(['export', 'relayer', config, '--out', '-', ...flags]);
      expect(result.code, flags.join(' ')).to.equal(code);
      const printed =
        result.stdout === '' ? [] : (JSON.parse(result.stdout) as { networks: Array<{ network: string }> }).networks;
      expect(printed.map((n) => n.network)).to.deep.equal(networks);
    }
  });
});
