/**
 * PATCH /networks/{id}: what a good request does to the file and the index, and what every
 * invalid body answers (the validation table), with the file's bytes checked after each.
 */
import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { networkYaml } from '../helpers/fixtures.js';
import { HIDDEN_CHARACTER_ROWS, MULTI_ROWS, POLICY_ROWS, SCHEMA_ROWS, URL_RULE_ROWS } from '../helpers/write-cases.js';
import {
  expectErrorEnvelope,
  fileState,
  leftoversOf,
  sha256Etag,
  writeRig,
  type WriteRig,
} from '../helpers/write-support.js';

const SEPOLIA = 'evm/sepolia.yaml';
const MIXED = { rpc_urls: ['https://plain.example.com', { url: 'https://w.example.com', weight: 25 }] };
const MIXED_WIRE = [
  { url: 'https://plain.example.com', weight: 100 },
  { url: 'https://w.example.com', weight: 25 },
];

describe('PATCH /networks/{id}', () => {
  let rig: WriteRig;
  beforeEach(async () => {
    rig = await writeRig();
  });
  afterEach(async () => {
    await rig.close();
  });

  const ROUTES = [
    '/api/v1/networks/evm:sepolia',
    '/api/v1/networks/evm%3Asepolia',
    '/networks/evm:sepolia',
    '/networks/evm%3Asepolia',
  ];
  for (const url of ROUTES) {
    it(`PATCH ${url} writes the file and answers 200 with the new ETag`, async () => {
      const res = await request(rig.app.callback()).patch(url).send(MIXED);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.include({ success: true, error: null });
      expect(res.body.data).to.deep.include({
        id: 'evm:sepolia',
        network_type: 'evm',
        name: 'sepolia',
        rpc_urls: MIXED_WIRE,
      });
      const bytes = readFileSync(rig.file(SEPOLIA));
      expect(res.headers.etag).to.equal(sha256Etag(bytes));
      const got = await request(rig.app.callback()).get(url);
      expect(got.headers.etag).to.equal(res.headers.etag);
      expect(got.body.data.rpc_urls).to.deep.equal(MIXED_WIRE);
      expect(await leftoversOf(rig)).to.deep.equal([]);
    });
  }

  it('writes each entry in the form sent: a plain string as a scalar, a weighted entry as a mapping', async () => {
    await request(rig.app.callback()).patch('/api/v1/networks/evm:sepolia').send(MIXED).expect(200);
    const text = readFileSync(rig.file(SEPOLIA), 'utf8');
    const seq = parseDocument(text).get('rpc_urls');
    if (!isSeq(seq)) throw new Error(`rpc_urls is not a sequence in:\n${text}`);
    expect(isScalar(seq.items[0])).to.equal(true);
    expect(isMap(seq.items[1])).to.equal(true);
    expect(text).to.match(/^ *- https:\/\/plain\.example\.com$/m);
    expect(text).to.match(/^ *- url: https:\/\/w\.example\.com\n *weight: 25$/m);
    // The rest of the file is still there: comment, other fields.
    expect(text)
      .to.contain('# test network\n')
      .and.contain('chain_id: 11155111 # sepolia\n')
      .and.contain('is_testnet: true\n');
  });

  it('a no-op PATCH answers 200 and does not touch the file (mtime and inode unchanged)', async () => {
    const before = fileState(rig.file(SEPOLIA));
    const same = { rpc_urls: ['https://rpc.example.com', { url: 'https://backup.example.com', weight: 30 }] };
    const res = await request(rig.app.callback()).patch('/api/v1/networks/evm:sepolia').send(same);
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.etag).to.equal(sha256Etag(before.bytes));
    const after = fileState(rig.file(SEPOLIA));
    expect(after.bytes.equals(before.bytes)).to.equal(true);
    expect(after.mtimeMs).to.equal(before.mtimeMs);
    expect(after.ino).to.equal(before.ino);
  });

  it('reads its own writes: GET right after PATCH sees the new value without the watcher', async () => {
    await rig.close();
    // A watcher that would take a minute to notice anything: only the PATCH itself can update the index.
    rig = await writeRig(undefined, { watch: { debounceMs: 60_000 } });
    const res = await request(rig.app.callback())
      .patch('/networks/evm:mainnet')
      .send({ rpc_urls: ['https://new.example.com'] });
    expect(res.status, res.text).to.equal(200);
    const got = await request(rig.app.callback()).get('/networks/evm:mainnet');
    expect(got.body.data.rpc_urls).to.deep.equal([{ url: 'https://new.example.com', weight: 100 }]);
    expect(got.headers.etag).to.equal(res.headers.etag);
  });

  it('keeps the file mode (640 before, 640 after)', async () => {
    chmodSync(rig.file(SEPOLIA), 0o640);
    await request(rig.app.callback()).patch('/api/v1/networks/evm:sepolia').send(MIXED).expect(200);
    expect(fileState(rig.file(SEPOLIA)).mode).to.equal(0o640);
  });

  it('an unknown id is 404 NETWORK_NOT_FOUND and creates nothing', async () => {
    const res = await request(rig.app.callback()).patch('/api/v1/networks/evm:nowhere').send(MIXED);
    expectErrorEnvelope(res, 404, 'NETWORK_NOT_FOUND');
    expect(existsSync(rig.file('evm/nowhere.yaml'))).to.equal(false);
    expect(await leftoversOf(rig)).to.deep.equal([]);
  });

  it('a network whose file was deleted after load is 404 and the file is not recreated', async () => {
    rmSync(rig.file(SEPOLIA));
    const res = await request(rig.app.callback()).patch('/api/v1/networks/evm:sepolia').send(MIXED);
    expectErrorEnvelope(res, 404, 'NETWORK_NOT_FOUND');
    expect(existsSync(rig.file(SEPOLIA))).to.equal(false);
    expect(existsSync(rig.file('evm/sepolia.yml'))).to.equal(false);
    expect(await leftoversOf(rig)).to.deep.equal([]);
  });

  describe('validation: 400 VALIDATION_FAILED naming every problem, file bytes unchanged', () => {
    for (const row of [...SCHEMA_ROWS, ...URL_RULE_ROWS, ...HIDDEN_CHARACTER_ROWS, ...MULTI_ROWS]) {
      it(`${row.rule} -> 400 at ${row.pointers.map((p) => `"${p}"`).join(', ')}`, async () => {
        const before = readFileSync(rig.file(SEPOLIA));
        const res = await request(rig.app.callback())
          .patch('/api/v1/networks/evm:sepolia')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(row.body));
        const details = expectErrorEnvelope(res, 400, 'VALIDATION_FAILED');
        const pointers = [...new Set(details.map((d) => d.pointer))];
        expect(pointers).to.have.members(row.pointers);
        for (const d of details) expect(d.message).to.be.a('string').and.not.equal('');
        expect(readFileSync(rig.file(SEPOLIA)).equals(before)).to.equal(true);
        expect(await leftoversOf(rig)).to.deep.equal([]);
      });
    }
  });

  describe('URL policy (StoreOptions.policy)', () => {
    for (const row of POLICY_ROWS) {
      it(`${row.rule}: ${row.url} -> ${row.status}`, async () => {
        await rig.close();
        rig = await writeRig(
          { [SEPOLIA]: networkYaml({ rpc_urls: ['https://rpc.allowed.com'] }) },
          { policy: row.policy },
        );
        const before = readFileSync(rig.file(SEPOLIA));
        const res = await request(rig.app.callback())
          .patch('/api/v1/networks/evm:sepolia')
          .send({ rpc_urls: [row.url] });
        if (row.status === 400) {
          const details = expectErrorEnvelope(res, 400, 'VALIDATION_FAILED');
          expect(details.map((d) => d.pointer)).to.deep.equal(['/rpc_urls/0']);
          expect(readFileSync(rig.file(SEPOLIA)).equals(before)).to.equal(true);
        } else {
          expect(res.status, res.text).to.equal(200);
          expect(readFileSync(rig.file(SEPOLIA), 'utf8')).to.contain(row.url);
        }
      });
    }
  });
});
