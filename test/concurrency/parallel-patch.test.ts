/**
 * Many PATCHes to one network at once, over real HTTP to one server: every write lands whole,
 * the last one wins cleanly, and nothing is left in the folder.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';
import { parseNetworkFile } from '../../src/store/validation/network-file.js';
import { OPEN_POLICY } from '../../src/store/validation/url-rules.js';
import { leftoversOf, listenApp, sha256Etag, writeRig, type WriteRig } from '../helpers/write-support.js';

const N = 50;
const SEPOLIA = 'evm/sepolia.yaml';
const ID = { id: 'evm:sepolia', family: 'evm', name: 'sepolia' };

function bodyOf(i: number): { rpc_urls: unknown[] } {
  return {
    rpc_urls: [`https://rpc${i}.example.com`, { url: `https://backup${i}.example.com/v1`, weight: (i % 100) + 1 }],
  };
}

const wire = (entries: unknown[]) => entries.map((e) => (typeof e === 'string' ? { url: e, weight: 100 } : e));

interface Answer {
  i: number;
  status: number;
  etag: string | null;
  body: { data?: { rpc_urls?: unknown } };
}

describe('concurrency: parallel PATCHes to one network', () => {
  let rig: WriteRig;
  let server: { url: string; close(): Promise<void> };
  beforeEach(async () => {
    rig = await writeRig();
    server = await listenApp(rig.app);
  });
  afterEach(async () => {
    await server.close();
    await rig.close();
  });

  async function patchAll(headers: (i: number) => Record<string, string>): Promise<Answer[]> {
    return Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const res = await fetch(`${server.url}/api/v1/networks/evm:sepolia`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/json', ...headers(i) },
          body: JSON.stringify(bodyOf(i)),
        });
        return { i, status: res.status, etag: res.headers.get('etag'), body: (await res.json()) as Answer['body'] };
      }),
    );
  }

  it(`${N} distinct bodies at once: all 200, the file ends equal to one of them, nothing left behind`, async () => {
    const answers = await patchAll(() => ({}));
    expect(answers.map((a) => a.status)).to.deep.equal(Array(N).fill(200));
    // Each answer shows its own body: no request was answered with another's write.
    for (const a of answers) expect(a.body.data?.rpc_urls, `answer ${a.i}`).to.deep.equal(wire(bodyOf(a.i).rpc_urls));
    // Each write produced different bytes, so 50 distinct ETags.
    expect(new Set(answers.map((a) => a.etag)).size).to.equal(N);

    const text = readFileSync(rig.file(SEPOLIA), 'utf8');
    const outcome = parseNetworkFile(text, ID, SEPOLIA, OPEN_POLICY);
    expect(outcome.ok, text).to.equal(true);
    const written = (parse(text) as { rpc_urls: unknown[] }).rpc_urls;
    const winner = answers.find((a) => a.etag === sha256Etag(text));
    expect(winner, 'the file is the result of one of the answered writes').to.not.equal(undefined);
    expect(written).to.deep.equal(bodyOf(winner!.i).rpc_urls);
    expect(text).to.contain('# test network').and.contain('chain_id: 11155111 # sepolia');

    const got = await fetch(`${server.url}/api/v1/networks/evm:sepolia`);
    expect(got.headers.get('etag')).to.equal(sha256Etag(text));
    expect(await leftoversOf(rig)).to.deep.equal([]);
  });

  it(`${N} writers racing with the same If-Match: exactly one 200, every other answer 412`, async () => {
    const start = await fetch(`${server.url}/api/v1/networks/evm:sepolia`);
    const etag = String(start.headers.get('etag'));
    const answers = await patchAll(() => ({ 'If-Match': etag }));
    const won = answers.filter((a) => a.status === 200);
    expect(won).to.have.length(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).to.deep.equal(Array(N - 1).fill(412));
    const text = readFileSync(rig.file(SEPOLIA), 'utf8');
    expect(won[0]!.etag).to.equal(sha256Etag(text));
    // Every loser was told the ETag of the winner's file.
    for (const a of answers) if (a.status === 412) expect(a.etag).to.equal(won[0]!.etag);
    expect((parse(text) as { rpc_urls: unknown[] }).rpc_urls).to.deep.equal(bodyOf(won[0]!.i).rpc_urls);
    expect(await leftoversOf(rig)).to.deep.equal([]);
  });
});
