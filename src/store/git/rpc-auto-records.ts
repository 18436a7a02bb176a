/**
 * The self-healing records of a file's whole history (`Netcfg-Rpc-Auto` trailers, newest first,
 * with their commit's date), read with one `git log` for `netcfg validate --probe`: a pull request
 * that re-enables by hand a URL netcfg's prober disabled is warned of it. Outside a git work tree,
 * or when git cannot answer, there are none.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export function rpcAutoRecords(file: string): Array<{ at: string; record: string }> {
  let log: string;
  try {
    log = execFileSync(
      'git',
      [
        'log',
        '--format=%aI%x1f%(trailers:key=Netcfg-Rpc-Auto,valueonly,separator=%x1d)%x1e',
        '--',
        path.basename(file),
      ],
      {
        cwd: path.dirname(file),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 10_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch {
    return [];
  }
  return log.split('\x1e').flatMap((entry) => {
    const [at = '', trailers = ''] = entry.trim().split('\x1f');
    return trailers
      .split('\x1d')
      .map((r) => r.trim())
      .filter((r) => r !== '')
      .map((record) => ({ at, record }));
  });
}
