/**
 * The access log's batcher: what reaches the file writer, and that nothing it hands over is reused.
 */
import { expect } from 'chai';
import { LineBatcher } from '../src/log.js';

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
      flush() {},
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

  it('gives the writer bytes that later lines do not overwrite (the writer keeps them until written)', () => {
    const c = collector();
    const batcher = new LineBatcher(c.out);
    batcher.write('first\n');
    batcher.flush();
    batcher.write('second\n');
    batcher.flush();
    expect(c.writes.map((b) => b.toString('utf8'))).to.deep.equal(['first\n', 'second\n']);
  });
});
