/**
 * RPC_PROBE_ON_PATCH against fake JSON-RPC endpoints on loopback, through the app (a real store on
 * a real folder): `reject` refuses a URL on the wrong chain with nothing written, `warn` writes and
 * says so beside the data, and without it nothing is asked.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../src/http/app.js';
import { DEFAULT_PROBER, Prober } from '../../src/probe/prober.js';
import { urlCheckOf } from '../../src/probe/url-check.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir } from '../helpers/fixtures.js';
import { startFakeRpc, type Answer, type FakeRpc } from '../helpers/fake-rpc.js';
import { startStore } from '../helpers/store.js';
import { expectErrorEnvelope } from '../helpers/write-support.js';

const SEPOLIA: Record<string, Answer> = { eth_chainId: { result: '0xaa36a7' }, eth_blockNumber: { result: '0x64' } };
const MAINNET: Record<string, Answer> = { eth_chainId: { result: '0x1' }, eth_blockNumber: { result: '0x64' } };

describe('probe/url-check: RPC_PROBE_ON_PATCH (fake endpoints on loopback)', () => {
  let root: string;
  let store: NetworkStore | undefined;
  const fakes: FakeRpc[] = [];
  const fake = async (answers: Record<string, Answer>): Promise<FakeRpc> => {
    const f = await startFakeRpc(answers);
    fakes.push(f);
    return f;
  };
  const file = (): string => readFileSync(path.join(root, 'evm', 'sepolia.yaml'), 'utf8');
  const open = async (mode?: 'warn' | 'reject') => {
    root = makeConfigDir({ 'evm/sepolia.yaml': networkYaml() });
    store = await startStore(
      root,
      mode ? { urlCheck: urlCheckOf(new Prober({ ...DEFAULT_PROBER, timeoutMs: 500 }), mode) } : {},
    );
    return request(createApp(store).callback());
  };
  afterEach(async () => {
    await store?.close();
    store = undefined;
    removeDir(root);
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  it('reject: a URL that serves another chain is 400 VALIDATION_FAILED at its entry, and nothing is written', async () => {
    const agent = await open('reject');
    const good = await fake(SEPOLIA);
    const wrong = await fake(MAINNET);
    const before = file();
    const res = await agent
      .patch('/api/v1/networks/evm:sepolia')
      .send({ rpc_urls: [good.url, { url: wrong.url, weight: 50 }] });
    const details = expectErrorEnvelope(res, 400, 'VALIDATION_FAILED');
    expect(details).to.deep.equal([
      {
        pointer: '/rpc_urls/1',
        message: 'rpc_urls[1] serves another chain: answered chain_id 1; the file says 11155111',
      },
    ]);
    expect(res.body.error).to.match(/nothing was written/);
    expect(file()).to.equal(before);
  });

  it('reject: URLs on the claimed chain are written; one unreachable is written too and reported beside the data', async () => {
    const agent = await open('reject');
    const good = await fake(SEPOLIA);
    const dead = await fake(SEPOLIA);
    await fakes.pop()?.close();
    const res = await agent.patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: [good.url, dead.url] });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.rpc_urls.map((u: { url: string }) => u.url)).to.deep.equal([good.url, dead.url]);
    expect(res.body.rpc_warnings).to.have.length(1);
    expect(res.body.rpc_warnings[0]).to.include({ url: dead.url, status: 'unreachable' });
    expect(file()).to.include(good.url);
  });

  it('warn: the wrong chain is written, and said beside the data', async () => {
    const agent = await open('warn');
    const wrong = await fake(MAINNET);
    const res = await agent.patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: [wrong.url] });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.rpc_warnings[0]).to.include({ url: wrong.url, status: 'wrong_chain', chain_id: 1 });
    expect(file()).to.include(wrong.url);
  });

  it('off: nothing is asked; a disabled URL is never asked', async () => {
    const agent = await open();
    const wrong = await fake(MAINNET);
    const res = await agent.patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: [wrong.url] });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.not.have.property('rpc_warnings');
    expect(wrong.calls).to.deep.equal([]);
    await store?.close();
    removeDir(root);
    const checking = await open('reject');
    const disabled = await fake(MAINNET);
    const good = await fake(SEPOLIA);
    const ok = await checking
      .patch('/api/v1/networks/evm:sepolia')
      .send({ rpc_urls: [good.url, { url: disabled.url, weight: 0 }] });
    expect(ok.status, ok.text).to.equal(200);
    expect(disabled.calls).to.deep.equal([]);
  });
});
