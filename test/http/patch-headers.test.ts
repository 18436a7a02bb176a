/**
 * PATCH's headers: Content-Type (415), the body's syntax and size (400, 413), and If-Match
 * (412 with the current ETag, `*`, REQUIRE_IF_MATCH's 428, edits made on disk behind netcfg's back).
 * Every refusal leaves the file's bytes as they were.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { networkYaml } from '../helpers/fixtures.js';
import {
  expectErrorEnvelope,
  leftoversOf,
  listenApp,
  sha256Etag,
  writeRig,
  type WriteRig,
} from '../helpers/write-support.js';

const URL_PATH = '/api/v1/networks/evm:sepolia';
const SEPOLIA = 'evm/sepolia.yaml';
const BODY = JSON.stringify({ rpc_urls: ['https://new.example.com'] });

/** A JSON body of exactly `size` bytes: valid JSON with an unknown field used as padding. */
function bodyOfSize(size: number): string {
  const shell = JSON.stringify({ rpc_urls: ['https://new.example.com'], pad: '' });
  return shell.replace('"pad":""', `"pad":"${'x'.repeat(size - shell.length)}"`);
}

describe('PATCH /networks/{id} headers', () => {
  let rig: WriteRig;
  let before: Buffer;
  beforeEach(async () => {
    rig = await writeRig();
    before = readFileSync(rig.file(SEPOLIA));
  });
  afterEach(async () => {
    await rig.close();
  });

  async function expectUntouched(): Promise<void> {
    expect(readFileSync(rig.file(SEPOLIA)).equals(before), 'file bytes changed').to.equal(true);
    expect(await leftoversOf(rig)).to.deep.equal([]);
  }

  describe('Content-Type and body', () => {
    const ROWS: Array<{ type: string; body: string; status: number; code?: string }> = [
      { type: 'application/json', body: BODY, status: 200 },
      { type: 'application/json; charset=utf-8', body: BODY, status: 200 },
      { type: 'application/merge-patch+json', body: BODY, status: 200 },
      { type: 'text/plain', body: BODY, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      {
        type: 'application/x-www-form-urlencoded',
        body: 'rpc_urls=https://new.example.com',
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
      { type: 'application/json-patch+json', body: '[{"op":"replace"}]', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      {
        type: 'application/yaml',
        body: 'rpc_urls: [https://new.example.com]',
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
      { type: 'application/json', body: '{"rpc_urls": [', status: 400, code: 'MALFORMED_JSON' },
      { type: 'application/json', body: "{'rpc_urls': []}", status: 400, code: 'MALFORMED_JSON' },
      {
        type: 'application/merge-patch+json',
        body: '{"rpc_urls": ["https://a.example.com",]}',
        status: 400,
        code: 'MALFORMED_JSON',
      },
      { type: 'application/json', body: bodyOfSize(64 * 1024 + 1), status: 413, code: 'PAYLOAD_TOO_LARGE' },
      // Exactly 64 KiB is read (and refused for its unknown field, not for its size).
      { type: 'application/json', body: bodyOfSize(64 * 1024), status: 400, code: 'VALIDATION_FAILED' },
    ];
    for (const row of ROWS) {
      const label = row.body.length > 60 ? `${row.body.length} bytes` : row.body;
      it(`${row.type} ${label} -> ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
        const res = await request(rig.app.callback()).patch(URL_PATH).set('Content-Type', row.type).send(row.body);
        if (row.code === undefined) {
          expect(res.status, res.text).to.equal(200);
          expect(readFileSync(rig.file(SEPOLIA), 'utf8')).to.contain('https://new.example.com');
          return;
        }
        expectErrorEnvelope(res, row.status, row.code);
        await expectUntouched();
      });
    }

    it('no body, or an empty one, whatever the Content-Type -> 400 MALFORMED_JSON saying it is empty', async () => {
      const server = await listenApp(rig.app);
      try {
        const cases: Array<{ headers: Record<string, string>; body?: string | ReadableStream }> = [
          { headers: { 'content-type': 'application/json' } },
          { headers: { 'content-type': 'application/json' }, body: '' },
          { headers: { 'content-type': 'text/plain' } },
          { headers: { 'content-type': 'application/json' }, body: new ReadableStream({ start: (c) => c.close() }) },
        ];
        for (const { headers, body } of cases) {
          const res = await fetch(`${server.url}${URL_PATH}`, {
            method: 'PATCH',
            headers,
            body,
            ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
          } as RequestInit);
          const reply = (await res.json()) as Record<string, unknown>;
          expect({ status: res.status, code: reply.code }, JSON.stringify(reply)).to.deep.equal({
            status: 400,
            code: 'MALFORMED_JSON',
          });
          expect(reply.error).to.match(/^The request body is empty/);
        }
      } finally {
        await server.close();
      }
      await expectUntouched();
    });

    it('a body without Content-Type -> 415', async () => {
      const server = await listenApp(rig.app);
      try {
        const res = await fetch(`${server.url}${URL_PATH}`, { method: 'PATCH', body: new TextEncoder().encode(BODY) });
        expect(res.status).to.equal(415);
        expect(await res.json()).to.deep.include({ success: false, data: null, code: 'UNSUPPORTED_MEDIA_TYPE' });
      } finally {
        await server.close();
      }
      await expectUntouched();
    });
  });

  describe('If-Match', () => {
    async function currentEtag(): Promise<string> {
      const res = await request(rig.app.callback()).get(URL_PATH).expect(200);
      return String(res.headers.etag);
    }
    const patch = (ifMatch?: string) => {
      const req = request(rig.app.callback()).patch(URL_PATH).set('Content-Type', 'application/json');
      return ifMatch === undefined ? req.send(BODY) : req.set('If-Match', ifMatch).send(BODY);
    };

    it('the ETag from GET is accepted', async () => {
      const res = await patch(await currentEtag());
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.etag).to.equal(sha256Etag(readFileSync(rig.file(SEPOLIA))));
    });

    it('a stale ETag -> 412 PRECONDITION_FAILED with the current ETag, nothing written', async () => {
      const stale = await currentEtag();
      await request(rig.app.callback())
        .patch(URL_PATH)
        .send({ rpc_urls: ['https://first.example.com'] })
        .expect(200);
      before = readFileSync(rig.file(SEPOLIA));
      const res = await patch(stale);
      expectErrorEnvelope(res, 412, 'PRECONDITION_FAILED');
      expect(res.headers.etag).to.equal(sha256Etag(before));
      await expectUntouched();
    });

    const MATCHING: Array<{ name: string; header: (etag: string) => string; status: number }> = [
      { name: '*', header: () => '*', status: 200 },
      { name: 'a list holding the current ETag', header: (etag) => `"nope", ${etag}`, status: 200 },
      { name: 'the weak form of the current ETag', header: (etag) => `W/${etag}`, status: 412 },
      { name: 'an ETag of other bytes', header: () => sha256Etag('other'), status: 412 },
    ];
    for (const row of MATCHING) {
      it(`If-Match: ${row.name} -> ${row.status}`, async () => {
        const res = await patch(row.header(await currentEtag()));
        expect(res.status, res.text).to.equal(row.status);
        if (row.status === 412) await expectUntouched();
      });
    }

    it("an edit made on disk behind netcfg's back makes the old ETag stale", async () => {
      const old = await currentEtag();
      const edited = networkYaml({ rpc_urls: ['https://edited.example.com'], extra: 'symbol: ETH' });
      writeFileSync(rig.file(SEPOLIA), edited);
      before = Buffer.from(edited);
      const res = await patch(old);
      expectErrorEnvelope(res, 412, 'PRECONDITION_FAILED');
      expect(res.headers.etag).to.equal(sha256Etag(edited));
      await expectUntouched();
      // Retrying with the ETag of the 412 works and keeps what the edit added.
      const retry = await patch(String(res.headers.etag));
      expect(retry.status, retry.text).to.equal(200);
      expect(readFileSync(rig.file(SEPOLIA), 'utf8'))
        .to.contain('symbol: ETH')
        .and.contain('https://new.example.com');
    });

    describe('with requireIfMatch (REQUIRE_IF_MATCH)', () => {
      beforeEach(async () => {
        await rig.close();
        rig = await writeRig(undefined, {}, { requireIfMatch: true });
        before = readFileSync(rig.file(SEPOLIA));
      });

      it('a PATCH without If-Match -> 428 PRECONDITION_REQUIRED, nothing written', async () => {
        expectErrorEnvelope(await patch(), 428, 'PRECONDITION_REQUIRED');
        await expectUntouched();
      });

      it('a PATCH with the current ETag or * -> 200', async () => {
        expect((await patch(await currentEtag())).status).to.equal(200);
        const second = await request(rig.app.callback())
          .patch(URL_PATH)
          .set('If-Match', '*')
          .send({ rpc_urls: ['https://again.example.com'] });
        expect(second.status, second.text).to.equal(200);
      });
    });
  });
});
