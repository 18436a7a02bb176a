/**
 * The self-healing records of a config folder's history (`Netcfg-Rpc-Auto` trailers, newest first,
 * with their commit's date), per file, read with one `git log` over the whole folder for
 * `netcfg validate --probe`: a pull request that re-enables by hand a URL netcfg's prober disabled is
 * warned of it. Outside a git work tree, or when git cannot answer, there are none.
 */
import { execFileSync } from 'node:child_process';

export type RpcAutoRecord = { at: string; record: string };

/**
 * Every file's records under `dir`, keyed by its path relative to `dir` (`evm/sepolia.yaml`). One
 * process for the folder, not one per file: a `git log` walks the whole history each time it runs.
 */
export function rpcAutoRecordsOf(dir: string): Map<string, RpcAutoRecord[]> {
  const byFile = new Map<string, RpcAutoRecord[]>();
  let log: string;
  try {
    log = execFileSync(
      'git',
      [
        'log',
        '-z',
        '--relative',
        '--name-only',
        // Only commits that may hold the trailer; the trailer itself is read below, by git's own rules.
        '--regexp-ignore-case',
        '--fixed-strings',
        '--grep=Netcfg-Rpc-Auto',
        '--format=%x1e%aI%x1f%(trailers:key=Netcfg-Rpc-Auto,valueonly,separator=%x1d)%x1f',
        '--',
        '.',
      ],
      { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000, maxBuffer: 64 * 1024 * 1024 },
    );
  } catch {
    return byFile;
  }
  for (const entry of log.split('\x1e')) {
    const [at = '', trailers = '', names = ''] = entry.split('\x1f');
    const records = trailers
      .split('\x1d')
      .map((r) => r.trim())
      .filter((r) => r !== '')
      .map((record) => ({ at: at.trim(), record }));
    if (records.length === 0) continue;
    // -z: the names follow the format's line, each ended by a NUL.
    for (const name of names.split('\0').map((n) => n.replace(/^\n/, ''))) {
      if (name !== '') byFile.set(name, [...(byFile.get(name) ?? []), ...records]);
    }
  }
  return byFile;
}
