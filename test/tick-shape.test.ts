/**
 * keepTickShape(): a full GC made while no tick object is alive must not take the tick object's
 * map with it (tick-shape.ts says why that costs ~10% of every request). Each case runs in a child
 * process of its own: a fresh heap, and a process where the shape was never kept.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../src/paths.js';

const PROBE = path.join(PROJECT_ROOT, 'test', 'helpers', 'tick-map-probe.ts');

async function mapIds(...args: string[]): Promise<{ before: number; after: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', PROBE, ...args], { cwd: PROJECT_ROOT });
  return JSON.parse(stdout) as { before: number; after: number };
}

describe('tick-shape: keepTickShape', () => {
  it('without it, a full GC with no tick object alive makes the next tick object on a new map (why it exists)', async () => {
    const { before, after } = await mapIds();
    expect(after).to.not.equal(before);
  });

  it('with it, the tick object map outlives that GC', async () => {
    const { before, after } = await mapIds('keep');
    expect(after).to.equal(before);
  });
});
