/** The log: a real log file gets every line whole, in order, as it is written. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createLogger, logRequest } from '../src/log.js';

describe('log: createLogger', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every line whole and in order into a real file, each before the call returns', () => {
    const file = path.join(dir, 'access.log');
    const log = createLogger('info', file);
    const paths = Array.from({ length: 3_000 }, (_, i) => `/api/v1/networks/evm:n${i}?pad=${'é'.repeat(i % 50)}`);
    paths.forEach((p, i) => {
      logRequest(log, { reqId: `r${i}`, method: 'GET', path: p, status: 200, ms: 0.1 });
      if (i === 1_500) log.info({ n: i }, 'between');
    });
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const access = lines.filter((l) => l.msg === 'request');
    expect(access.map((l) => l.path)).to.deep.equal(paths);
    expect(access.map((l) => l.req_id)).to.deep.equal(paths.map((_, i) => `r${i}`));
    expect(lines[1_501]).to.include({ msg: 'between', n: 1_500, service: 'netcfg' });
  });
});
