/**
 * Property-based fuzzing of PATCH with fast-check against a real listening server in this process
 * (so a prototype polluted by the server would show here). For every generated body and header
 * set: the answer is 200 or a 4xx, a 4xx is the error envelope and leaves the file's bytes as they
 * were, a 200 leaves a valid file whose ETag is the one answered, and Object.prototype keeps
 * exactly its own properties. FUZZ_SEED and FUZZ_RUNS (default 2,000) change the run.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { etagOf, parseNetworkFile } from '../../src/store/validation/network-file.js';
import { OPEN_POLICY } from '../../src/store/validation/url-rules.js';
import { standardFiles } from '../helpers/fixtures.js';
import { openReadApp, serveApp, type ReadApp, type Served } from '../helpers/read-http.js';
import { fuzzCase, type FuzzCase } from '../helpers/reliability-fuzz.js';
import { isEnvelope } from '../helpers/reliability-http.js';
import { envInt } from '../helpers/reliability-rng.js';

const SEED = envInt('FUZZ_SEED', 4242);
const RUNS = envInt('FUZZ_RUNS', 2000);
const ID = { id: 'evm:sepolia', family: 'evm', name: 'sepolia' };

function prototypeShape(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(','))
    .join('|');
}

/** Sends one case; resolves with the status and body (status 0: the server gave no answer). */
function send(
  port: number,
  c: FuzzCase,
  etag: string,
): Promise<{ status: number; text: string; etag: string | undefined }> {
  const headers: Record<string, string> = {};
  if (c.contentType !== undefined) headers['content-type'] = c.contentType;
  if (c.ifMatch !== undefined) headers['if-match'] = c.ifMatch.replace('current', etag);
  if (c.contentEncoding !== undefined) headers['content-encoding'] = c.contentEncoding;
  if (!c.chunked) headers['content-length'] = String(c.body.length);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      { host: '127.0.0.1', port, method: 'PATCH', path: c.path, headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            etag: res.headers.etag,
          }),
        );
      },
    );
    // A server that answers (413, 415) before reading the body may close while we still write.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    req.setTimeout(20_000, () => req.destroy(new Error('no answer within 20 s')));
    req.end(c.body);
  });
}

describe('reliability: PATCH fuzzing (fast-check)', function () {
  this.timeout(180_000);
  let fx: ReadApp;
  let served: Served;
  let root: string;
  let port: number;

  before(async () => {
    fx = await openReadApp(standardFiles());
    served = await serveApp(fx.app);
    ({ root } = fx);
    ({ port } = served);
  });
  after(async () => {
    await served.close();
    await fx.close();
  });

  it(`${RUNS} random PATCH requests (seed ${SEED}): 200 or 4xx in the envelope, bytes kept on refusal, no pollution`, async () => {
    const file = path.join(root, 'evm/sepolia.yaml');
    const shape = prototypeShape();
    const statuses = new Map<number, number>();
    const kinds = new Map<string, number>();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fuzzCase, async (c) => {
        runs++;
        const before = readFileSync(file);
        const reply = await send(port, c, etagOf(before));
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        kinds.set(
          `${c.kind}:${reply.status === 200 ? 200 : 'refused'}`,
          (kinds.get(`${c.kind}:${reply.status === 200 ? 200 : 'refused'}`) ?? 0) + 1,
        );
        expect(prototypeShape(), 'a built-in prototype gained or lost a property').to.equal(shape);
        expect(({} as Record<string, unknown>).polluted, 'Object.prototype was polluted').to.equal(undefined);
        const ok = reply.status === 200;
        expect(
          ok || (reply.status >= 400 && reply.status < 500),
          `answered ${reply.status}: ${reply.text.slice(0, 300)}`,
        ).to.equal(true);
        const after = readFileSync(file);
        if (ok) {
          const body = JSON.parse(reply.text) as { success: boolean; data: { id: string } };
          expect(body.success).to.equal(true);
          expect(body.data.id).to.equal('evm:sepolia');
          expect(
            parseNetworkFile(after.toString('utf8'), ID, 'evm/sepolia.yaml', OPEN_POLICY).ok,
            'a 200 left an invalid file',
          ).to.equal(true);
          expect(reply.etag).to.equal(etagOf(after));
        } else {
          expect(isEnvelope(reply.text), `not the envelope: ${reply.text.slice(0, 300)}`).to.equal(true);
          expect(after.equals(before), `a ${reply.status} changed the file`).to.equal(true);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(runs).to.be.at.least(RUNS);
    const count = (s: number): number => statuses.get(s) ?? 0;
    const summary = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${n}x${s}`)
      .join(', ');
    console.log(`      figures: ${runs} fuzz cases (seed ${SEED}): ${summary}`);
    // The run must exercise the write itself and the refusals, or it proves little.
    expect(count(200), 'cases that wrote').to.be.greaterThan(RUNS / 20);
    expect(runs - count(200), 'cases refused').to.be.greaterThan(RUNS / 4);
  });
});
