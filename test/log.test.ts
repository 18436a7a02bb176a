/**
 * The access log's batcher: what reaches the file writer, that it hands over the batch itself
 * (no copy per batch to outlive a scavenge), and that a real log file gets every line whole.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createLogger, LineBatcher, logRequest } from '../src/log.js';

/** Collects what the batcher hands its writer, as the bytes were at the moment of each write. */
function collector() {
  const writes: Buffer[] = [];
  const seen: string[] = [];
  return {
    writes,
    seen,
    out: {
      write(chunk: Buffer) {
        writes.push(chunk);
        seen.push(chunk.toString('utf8'));
      },
    },
  };
}

describe('log: LineBatcher', () => {
  it('hands over whole lines, in order, as UTF-8, only when flushed or full', () => {
    const c = collector();
    const batcher = new LineBatcher(c.out);
    const lines = ['{"path":"/a"}\n', '{"path":"/é/🙂"}\n', '{"path":"/c"}\n'];
    for (const line of lines) batcher.write(line);
    expect(c.writes).to.have.length(0);
    batcher.flush();
    expect(c.seen).to.deep.equal([lines.join('')]);
    batcher.flush();
    expect(c.writes).to.have.length(1); // nothing pending, nothing written
  });

  it('never splits a line across writes when the batch fills, and writes an oversized line whole', () => {
    const c = collector();
    const batcher = new LineBatcher(c.out);
    const lines = Array.from({ length: 2_000 }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(i % 97)}"}\n`);
    const huge = `{"big":"${'ü'.repeat(40_000)}"}\n`;
    const all = [...lines.slice(0, 1_000), huge, ...lines.slice(1_000)];
    for (const line of all) batcher.write(line);
    batcher.flush();
    expect(c.writes.length).to.be.greaterThan(2);
    for (const chunk of c.seen) expect(chunk.endsWith('\n')).to.equal(true);
    expect(c.seen.join('')).to.equal(all.join(''));
  });

  it('hands the writer a view of its one batch, never a copy', () => {
    const c = collector();
    const batcher = new LineBatcher(c.out);
    batcher.write('first\n');
    batcher.flush();
    batcher.write('second\n');
    batcher.flush();
    expect(c.seen).to.deep.equal(['first\n', 'second\n']);
    const [a, b] = c.writes as [Buffer, Buffer];
    expect(b.buffer).to.equal(a.buffer);
    expect(b.byteOffset).to.equal(a.byteOffset);
  });
});

describe('log: createLogger', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every line whole and in order into a real file, across many batches', () => {
    const file = path.join(dir, 'access.log');
    const log = createLogger('info', file);
    const paths = Array.from({ length: 3_000 }, (_, i) => `/api/v1/networks/evm:n${i}?pad=${'é'.repeat(i % 50)}`);
    paths.forEach((p, i) => {
      logRequest(log, { reqId: `r${i}`, method: 'GET', path: p, status: 200, ms: 0.1 });
      if (i === 1_500) log.info({ n: i }, 'between');
    });
    log.flush();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const access = lines.filter((l) => l.msg === 'request');
    expect(access.map((l) => l.path)).to.deep.equal(paths);
    expect(access.map((l) => l.req_id)).to.deep.equal(paths.map((_, i) => `r${i}`));
    expect(lines[1_501]).to.include({ msg: 'between', n: 1_500, service: 'netcfg' });
  });
});
