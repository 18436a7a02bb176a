/**
 * bench/trace-write.ts stamps copies of the compiled builds at lines of their code: these tests
 * keep its anchors in step with src/ and the write floor, so a change there that moves one fails
 * here, naming it, rather than when someone next needs the trace. The stamped copies must still
 * be valid JavaScript (`node --check`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { compileBaselines } from '../../bench/harness/servers.js';
import { traceFloor, traceNetcfg } from '../../bench/harness/trace-points.js';

const BUILD = path.resolve('dist', 'src');

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, f));
}

function expectValidJs(files: string[]): void {
  for (const file of files) {
    const checked = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    expect(checked.status, `${file}: ${checked.stderr}`).to.equal(0);
  }
}

describe('bench: the write trace fits the code it stamps', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-trace-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("stamps netcfg's build: every anchor found once, and the result is valid JavaScript", () => {
    cpSync(BUILD, dir, { recursive: true });
    traceNetcfg(dir, path.join(dir, 'rows.jsonl'));
    expect(readFileSync(path.join(dir, 'store', 'network-writer.js'), 'utf8')).to.include('__trace?.mark("send")');
    expectValidJs(['main.js', 'http/request-frame.js', 'http/routes/networks.js', 'store/network-writer.js', 'store/threaded-fs.js', 'store/disk-thread.js', 'store/fs-seam.js'].map((f) => path.join(dir, f)));
  });

  it("stamps the write floor's build, and the result is valid JavaScript", () => {
    compileBaselines(dir);
    traceFloor(dir, path.join(dir, 'rows.jsonl'));
    expect(readFileSync(path.join(dir, 'durable-replace.js'), 'utf8')).to.include('__diskTrace?.mark("synced")');
    expectValidJs(jsFiles(dir).filter((f) => /write-floor|durable-replace/.test(f)));
  });

  it('names the anchor and the file when the code moved', () => {
    cpSync(BUILD, dir, { recursive: true });
    const writer = path.join(dir, 'store', 'network-writer.js');
    writeFileSync(writer, readFileSync(writer, 'utf8').replace('const placing = place();', 'const placing = this.place();'));
    expect(() => traceNetcfg(dir, path.join(dir, 'rows.jsonl'))).to.throw(/"const placing = place\(\);" is not in store\/network-writer\.js exactly once/);
  });
});
