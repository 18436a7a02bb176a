/**
 * The change stream's bound on what waits for one client (STREAM_BACKLOG_LIMIT), on a real
 * listening server: a raw client that stops reading while 40 MB of `rpc_health` events are
 * emitted is dropped by the server after far fewer bytes, and resumes with Last-Event-ID; a client
 * that keeps reading gets every event and its heartbeats; a replay larger than the bound is
 * delivered. The events come from a view the test drives, the collaborator the app is given for
 * the live prober.
 */
import type http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import type { RpcHealthEvent } from '../../src/http/routes/rpc-health.js';
import { STREAM_BACKLOG_LIMIT } from '../../src/http/routes/events.js';
import { addressOf, closeGracefully, listen } from '../../src/http/server.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { makeConfigDir, removeDir, standardFiles } from '../helpers/fixtures.js';
import { openSse } from '../helpers/sse.js';
import { startStore } from '../helpers/store.js';
import { DrivenView, StreamReader } from '../helpers/event-stream.js';
import { NetworkIndex } from '../../src/store/index/network-index.js';

const EVENT_URL_BYTES = 10_000;
const EVENTS = 4_000; // 40 MB of frames
const BATCH = 25; // events per turn of the event loop

describe('http/events: what waits for one client is bounded', function () {
  this.timeout(60_000);
  let root: string;
  let store: NetworkStore;
  let index: NetworkIndex;
  let view: DrivenView;
  let server: http.Server;
  let url: string;
  let port: number;
  const sockets: net.Socket[] = [];

  beforeEach(async () => {
    root = makeConfigDir(standardFiles());
    // The index is handed in, so the replay test can fill it without 10,000 file changes.
    index = new NetworkIndex();
    store = await startStore(root, { index });
    view = new DrivenView();
    server = await listen(createApp(store, { heartbeatMs: 50, rpcHealth: view }), '127.0.0.1', 0);
    url = addressOf(server);
    port = (server.address() as net.AddressInfo).port;
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    server.closeAllConnections();
    await closeGracefully(server);
    await store.close();
    removeDir(root);
  });

  const event = (i: number): RpcHealthEvent => ({
    id: 'evm:sepolia',
    index: 0,
    url: `https://rpc-${i}.example.com/${'x'.repeat(EVENT_URL_BYTES)}`,
    status: `s${i}`,
    previous: null,
  });
  const frameBytes = Buffer.byteLength(`event: rpc_health\ndata: ${JSON.stringify(event(0))}\n\n`);

  async function connect(headers = ''): Promise<StreamReader> {
    const reader = await StreamReader.open(
      port,
      `GET /api/v1/networks/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n${headers}\r\n`,
    );
    sockets.push(reader.socket);
    await reader.until((r) => r.opened, 'the stream opened');
    return reader;
  }

  it('a client that stops reading is dropped after far fewer bytes than were emitted, and resumes with Last-Event-ID', async () => {
    const revision = store.revision();
    const reader = await connect();
    reader.socket.pause();
    const patched = await fetch(`${url}/api/v1/networks/evm:sepolia`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ rpc_urls: ['https://while-stalled.example.com'] }),
    });
    expect(patched.status).to.equal(200);
    for (let i = 0; i < EVENTS; i++) {
      view.emit(event(i));
      if (i % BATCH === BATCH - 1) await new Promise((r) => setImmediate(r));
    }
    const emitted = EVENTS * frameBytes;

    reader.socket.resume();
    await reader.until(
      (r) => r.closed || r.bytes >= emitted,
      'the server closing the stream, or every byte emitted arriving',
      20_000,
    );
    const report = `${reader.bytes} bytes received of ${emitted} emitted, connection ${reader.closed ? 'closed' : 'still open'}`;
    expect(reader.closed, report).to.equal(true);
    expect(reader.bytes, report).to.be.below(emitted / 4);
    expect(view.listeners.size, 'listeners left behind').to.equal(0);

    const resumed = await openSse(`${url}/api/v1/networks/events`, { 'Last-Event-ID': String(revision) });
    const [change] = await resumed.waitFor(1);
    resumed.close();
    expect(change).to.include({ event: 'modified', id: String(revision + 1) });
  });

  it('a client that reads, up to half the bound behind, gets every event and heartbeats after them', async () => {
    const reader = await connect();
    const lag = STREAM_BACKLOG_LIMIT / 2;
    const start = reader.bytes;
    for (let i = 0; i < EVENTS; i++) {
      view.emit(event(i));
      if (i % BATCH === BATCH - 1) {
        const sent = (i + 1) * frameBytes;
        await reader.until((r) => r.bytes - start >= sent - lag, 'the reader catching up to within the lag');
      }
    }
    await reader.until((r) => r.count('rpc_health') === EVENTS, 'every event');
    expect(JSON.parse(reader.lastData)).to.include({ status: `s${EVENTS - 1}` });
    const heartbeats = reader.heartbeats;
    await reader.until((r) => r.heartbeats > heartbeats, 'a heartbeat after the events');
    expect(reader.closed).to.equal(false);
  });

  it("a replay larger than the bound and the kernel's buffers, with a live event behind it, is delivered whole", async () => {
    const revision = store.revision();
    const base = index.get('evm:sepolia')!;
    // 10,000 changes in one burst, as after a checkout of thousands of files; long ETags stand in
    // for a replay that the kernel's buffers cannot take at once (10 MB).
    for (let i = 0; i < 10_000; i++) index.put({ ...base, etag: `"${String(i).padStart(1000, 'e')}"` });
    const reader = await StreamReader.open(
      port,
      `GET /api/v1/networks/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: ${revision}\r\n\r\n`,
    );
    sockets.push(reader.socket);
    reader.socket.pause(); // the replay waits in the server while the live event comes
    await view.listened();
    view.emit(event(0));
    reader.socket.resume();
    await reader.until((r) => r.count('rpc_health') === 1 || r.closed, 'the live event after the replay', 20_000);
    expect(reader.closed, `closed after ${reader.bytes} bytes`).to.equal(false);
    expect(reader.count('modified')).to.equal(10_000);
    expect(reader.lastId).to.equal(String(revision + 10_000));
  });
});
