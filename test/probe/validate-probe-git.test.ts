/**
 * `netcfg validate --probe` reads the prober's records of the whole folder with one `git` process, however many
 * networks it holds (one per network made a run over 1,000 networks 7x slower): a `git` on PATH that counts its runs
 * before it hands over to the real one, the built CLI, fake endpoints on loopback.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/paths.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { initRepo } from '../helpers/git-repo.js';
import { startFakeRpc, type FakeRpc } from '../helpers/fake-rpc.js';

const run = promisify(execFile);
const CLI = path.join(PROJECT_ROOT, 'dist', 'src', 'cli.js');

/** A folder holding a `git` that logs each run's arguments to `runs.log`, then runs the real git. */
function countingGit(): { bin: string; runs: () => string[] } {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'netcfg-git-'));
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const log = path.join(bin, 'runs.log');
  writeFileSync(log, '');
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(path.join(bin, 'git'), 0o755);
  return {
    bin,
    runs: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => /(^| )log( |$)/.test(l)), // `git log ...` or `git -C dir -c k=v log ...`
  };
}

describe('probe: validate --probe runs one git log for the folder', function () {
  this.timeout(30_000);
  let root = '';
  let bin = '';
  let rpc: FakeRpc | undefined;
  afterEach(async () => {
    removeDir(root);
    removeDir(bin);
    await rpc?.close();
  });

  for (const networks of [1, 12]) {
    it(`${networks} network(s): one git log`, async () => {
      rpc = await startFakeRpc({ eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } });
      const files: Record<string, string> = {};
      for (let i = 0; i < networks; i++) files[`evm/n${i}.yaml`] = networkYaml({ rpc_urls: [`${rpc.url}${i}`] });
      root = makeConfigDir(files);
      initRepo(root);
      const git = countingGit();
      bin = git.bin;
      const { stdout } = await run(process.execPath, [CLI, 'validate', '--probe', root], {
        env: { PATH: `${git.bin}${path.delimiter}${process.env.PATH ?? ''}` },
      });
      expect(stdout).to.contain(`${networks} networks valid`);
      expect(git.runs()).to.have.length(1);
    });
  }
});
