/**
 * The change stream on a real listening server: a client lists, opens the stream from the list's
 * revision, another client patches and a file is edited on disk; the stream delivers both, in
 * order, once each, and a reconnect with Last-Event-ID misses nothing.
 */
import { writeFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { addressOf, closeGracefully, listen } from '../../src/http/server.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, networkYaml, removeDir, standardFiles } from '../helpers/fixtures.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { startStore, until } from '../helpers/store.js';

const KEY = 'k'.repeat(40);
const AUTH = { Authorization: `Bearer ${KEY}` };

describe('http/events (change stream)', () => {
  let root: string;
  let store: NetworkStore;
  let server: http.Server;
  let url: string;
  let shutdown: AbortController;
  const clients: SseClient[] = [];

  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    store = await startStore(root);
    shutdown = new AbortController();
    server = await listen(
      createApp(store, { apiKey: KEY, heartbeatMs: 50, shutdown: shutdown.signal }),
      '127.0.0.1',
      0,
    );
    url = addressOf(server);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    shutdown.abort();
    await closeGracefully(server);
    await store.close();
    removeDir(root);
  });

  async function open(headers: Record<string, string> = {}, prefix = '/api/v1'): Promise<SseClient> {
    const client = await openSse(`${url}${prefix}/networks/events`, { ...AUTH, ...headers });
    clients.push(client);
    return client;
  }

  async function patch(id: string, rpcUrls: unknown[]): Promise<string> {
    const res = await fetch(`${url}/api/v1/networks/${id}`, {
      method: 'PATCH',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ rpc_urls: rpcUrls }),
    });
    expect(res.status).to.equal(200);
    return res.headers.get('etag') as string;
  }

  it('list, then stream from its revision: a PATCH and a disk edit arrive in order, once each', async () => {
    const list = (await (await fetch(`${url}/api/v1/networks`, { headers: AUTH })).json()) as { revision: number };
    const stream = await open({ 'Last-Event-ID': String(list.revision) });
    expect(stream.status).to.equal(200);

    const patchedEtag = await patch('evm:sepolia', ['https://patched.example.com']);
    const edited = networkYaml({ rpc_urls: ['https://edited.example.com'] });
    writeFileSync(path.join(root, 'evm/mainnet.yaml'), edited);

    const [first, second] = await stream.waitFor(2);
    expect(first).to.include({ event: 'modified', id: String(list.revision + 1) });
    expect(JSON.parse(first!.data)).to.deep.equal({
      id: 'evm:sepolia',
      etag: patchedEtag,
      revision: list.revision + 1,
      actor: 'token:api-key',
    });
    expect(second).to.include({ event: 'modified', id: String(list.revision + 2) });
    expect(JSON.parse(second!.data)).to.include({ id: 'evm:mainnet', actor: null });

    // Once each: the watcher's own event for the PATCHed bytes changes nothing.
    await store.whenIdle();
    await until(store, () => stream.comments.some((c) => c.startsWith('heartbeat')), 2000, 'a heartbeat');
    expect(stream.events.map((e) => e.id)).to.deep.equal([String(list.revision + 1), String(list.revision + 2)]);
  });

  it('a reconnect with Last-Event-ID replays exactly what was missed, also at the bare path', async () => {
    const stream = await open();
    await patch('evm:sepolia', ['https://one.example.com']);
    const [first] = await stream.waitFor(1);
    stream.close();

    await patch('evm:sepolia', ['https://two.example.com']);
    await patch('solana:devnet', ['https://three.example.com']);
    const resumed = await open({ 'Last-Event-ID': first!.id! }, '');
    const replay = await resumed.waitFor(2);
    expect(replay.map((e) => JSON.parse(e.data).id)).to.deep.equal(['evm:sepolia', 'solana:devnet']);
    expect(replay.map((e) => Number(e.id))).to.deep.equal([Number(first!.id) + 1, Number(first!.id) + 2]);
  });

  it('a deleted file is a deleted event; an unknown revision gets a reset event', async () => {
    const stream = await open();
    const { unlinkSync } = await import('node:fs');
    unlinkSync(path.join(root, 'solana/devnet.yaml'));
    const [deleted] = await stream.waitFor(1);
    expect(deleted).to.include({ event: 'deleted' });
    expect(JSON.parse(deleted!.data)).to.include({ id: 'solana:devnet', etag: null });

    const future = await open({ 'Last-Event-ID': '999999' });
    const [reset] = await future.waitFor(1);
    expect(reset).to.include({ event: 'reset', id: String(store.revision()) });
  });

  it('needs the API key, and rejects a malformed Last-Event-ID', async () => {
    expect((await fetch(`${url}/api/v1/networks/events`)).status).to.equal(401);
    const bad = await fetch(`${url}/api/v1/networks/events`, { headers: { ...AUTH, 'Last-Event-ID': 'abc' } });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { code: string }).code).to.equal('INVALID_QUERY');
  });

  it('shutdown ends open streams so the server can close', async () => {
    const stream = await open();
    await stream.waitFor(0);
    shutdown.abort();
    await closeGracefully(server); // would hang while a stream stayed open
  });
});
