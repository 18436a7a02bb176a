/**
 * The loader's parse under generated hostile YAML (test/helpers/yaml-fuzz.ts): whatever the text,
 * parseNetworkFile returns, never throws; a served record is valid JSON that says what the file
 * says, and a refused file has problems a person can jump to. FUZZ_RUNS sets the size (make soak).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { parseNetworkFile } from '../../../src/store/validation/network-file.js';
import { jsonOf } from '../../../src/store/network-record.js';
import { OPEN_POLICY } from '../../../src/store/validation/url-rules.js';
import { envInt } from '../../helpers/reliability-rng.js';
import { aliasShapes, hostileYaml } from '../../helpers/yaml-fuzz.js';

const RUNS = envInt('FUZZ_RUNS', 3000);
const ID = { id: 'evm:fuzz', family: 'evm', name: 'fuzz' };

function expectWellFormed(text: string): boolean {
  const outcome = parseNetworkFile(text, ID, 'evm/fuzz.yaml', OPEN_POLICY);
  if (outcome.ok) {
    const data = JSON.parse(jsonOf(outcome.record)) as Record<string, unknown>;
    expect(data.id).to.equal('evm:fuzz');
    expect(data.rpc_urls).to.be.an('array').with.length.greaterThan(0);
    return true;
  }
  const lineCount = text.split(/\r\n|\r|\n/).length;
  expect(outcome.problems).to.have.length.greaterThan(0);
  for (const p of outcome.problems) {
    expect(p.line, p.message)
      .to.be.a('number')
      .within(1, lineCount + 1);
    expect(p.column, p.message).to.be.a('number').at.least(1);
    expect(p.message).to.be.a('string').and.not.equal('');
  }
  return false;
}

describe('store/network-file under fuzzing', function () {
  this.timeout(Math.max(60_000, RUNS * 20));

  it(`${RUNS} generated documents: nothing throws, every outcome is well-formed`, () => {
    let served = 0;
    fc.assert(
      fc.property(hostileYaml, (text) => {
        if (expectWellFormed(text)) served++;
      }),
      { numRuns: RUNS },
    );
    // The generator reaches past the parser: some documents are served.
    expect(served, 'documents served').to.be.greaterThan(0);
  });

  it('every alias shape, each on its own', () => {
    fc.assert(
      fc.property(aliasShapes, (text) => void expectWellFormed(text)),
      { numRuns: 50 },
    );
  });
});
