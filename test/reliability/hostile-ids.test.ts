/**
 * Hostile ids against a real listening server, sent byte for byte on a socket (fetch and most
 * clients normalise `..` and percent-encoding away): traversal raw, percent-encoded and
 * double-encoded, NUL and CR/LF, overlong UTF-8, look-alike characters, upper case, very long ids,
 * on both prefixes, for GET (item and history) and PATCH. None may answer 5xx, none may serve a
 * canary network planted outside the config folder, and after all of them every file outside the
 * folder keeps its bytes and mtime, nothing new appears there, and nothing inside changed.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createApp } from '../../src/http/app.js';
import { closeGracefully, listen } from '../../src/http/server.js';
import type { NetworkStore } from '../../src/store/network-store.js';
import { networkYaml, removeDir, writeFile } from '../helpers/fixtures.js';
import { fingerprintTree } from '../helpers/reliability-disk.js';
import { isEnvelope, rawExchange, type RawReply } from '../helpers/reliability-http.js';
import { startStore } from '../helpers/store.js';

const CANARY = 'canary';
const HOSTILE: string[] = [
  '..%2F..%2Fetc',
  '..%2F..%2Fetc%2Fpasswd',
  '..%2f..%2fsecret.yaml',
  '%2e%2e%2f%2e%2e%2fsecret',
  '..',
  '../..',
  '../../etc/passwd',
  'evm:..',
  'evm:%2e%2e',
  'evm:%2E%2E',
  'evm:..%2F..%2Fsecret',
  'evm:..%2F..%2Fevm%2Fsepolia',
  '..:sepolia',
  '%2e%2e:sepolia',
  '..%2Fevm:sepolia',
  '..%2Fconfig2%2Fevm:sepolia',
  'evm/sepolia',
  'evm%2Fsepolia',
  'evm:sepolia/../x',
  'evm:sepolia%2F..%2Fx',
  'evm:sepolia%2F..%2F..%2F..%2Fsecret',
  'evm:..%2F..%2F..%2Fevm%2Fsepolia',
  'evm:sepolia%00',
  'evm%00:sepolia',
  '%00',
  'evm:sepolia%00.yaml',
  'evm:sepolia%0a',
  'evm:sepolia%0d%0aX-Injected:%201',
  'evm:sepolia%20',
  'evm:%20sepolia',
  '..%252F..%252Fetc',
  'evm:%252e%252e',
  'evm%253Asepolia',
  '%252e%252e%252fsecret',
  'evm:%25%32%65%25%32%65',
  `evm:${'a'.repeat(64)}`,
  `evm:${'a'.repeat(4000)}`,
  `${'..%2F'.repeat(2000)}etc`,
  'a'.repeat(20_000),
  'evm:s%D0%B5polia',
  'evm:sepol%C4%B1a',
  '%D0%B5vm:sepolia',
  'evm%EF%BC%9Asepolia',
  'evm:sepolia%E2%80%8B',
  'evm%EF%BC%8Fsepolia',
  'evm:s\u00d0\u00b5polia',
  '%c0%ae%c0%ae%c0%afsecret',
  'evm:%c0%ae%c0%ae',
  '%e0%80%ae%e0%80%ae',
  'EVM:SEPOLIA',
  'Evm:sepolia',
  'evm:Sepolia',
  'EVM%3ASEPOLIA',
  '..%5C..%5Csecret',
  'evm:..%5C..%5Csecret',
  '..\\..\\secret',
  '%',
  '%zz',
  'evm:%',
  'evm:%G0',
  'evm:sepolia.yaml',
  'evm:sepolia%2Eyaml',
  'evm:.locks',
  '.locks',
  '.git',
  'evm:~',
  'evm:sepolia:x',
  ':',
  'evm:',
  ':sepolia',
  'evm:sepolia;x',
  './evm:sepolia',
  'evm:./sepolia',
  '.%2Fevm:sepolia',
  'evm:sepolia%23',
  '~root',
  '$HOME',
  'evm:*',
  'evm:sepolia*',
];
const PREFIXES = ['/api/v1/networks/', '/networks/'];

describe('reliability: hostile ids on a real socket', function () {
  this.timeout(60_000);
  let base: string;
  let config: string;
  let store: NetworkStore;
  let server: http.Server;
  let port: number;
  const outsideOf = (): Map<string, string> => fingerprintTree(base, (rel) => rel === 'config');
  const insideOf = (): Map<string, string> => fingerprintTree(config, (rel) => rel === '.locks');

  before(async () => {
    base = mkdtempSync(path.join(tmpdir(), 'netcfg-hostile-'));
    config = path.join(base, 'config');
    mkdirSync(config);
    writeFile(config, 'evm/sepolia.yaml', networkYaml());
    writeFile(config, 'solana/devnet.yaml', networkYaml({ rpc_urls: ['https://api.devnet.solana.com'] }));
    // Canaries where a traversal would land: valid networks, so a leak would be served whole.
    writeFile(base, 'etc/passwd', `root:x:0:0:${CANARY}:/root:/bin/sh\n`);
    writeFile(base, 'secret.yaml', networkYaml({ rpc_urls: [`https://${CANARY}.example.com/secret`] }));
    writeFile(base, 'evm/sepolia.yaml', networkYaml({ rpc_urls: [`https://${CANARY}.example.com/evm`] }));
    writeFile(base, 'config2/evm/sepolia.yaml', networkYaml({ rpc_urls: [`https://${CANARY}.example.com/sibling`] }));
    store = await startStore(config);
    server = await listen(createApp(store), '127.0.0.1', 0);
    port = (server.address() as { port: number }).port;
  });
  after(async () => {
    await closeGracefully(server);
    await store.close();
    removeDir(base);
  });

  function send(method: string, target: string, body?: string): Promise<RawReply> {
    const head = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
    if (body !== undefined) head.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
    // latin1: each character of the row is one byte on the wire, exactly as written.
    return rawExchange(port, Buffer.from(`${head.join('\r\n')}\r\n\r\n${body ?? ''}`, 'latin1'));
  }

  function expectRefused(reply: RawReply, what: string): void {
    expect(reply.status, `${what}: no answer`).to.be.greaterThan(0);
    expect(reply.status, `${what} answered ${reply.status}`).to.be.within(400, 499);
    expect(reply.body.toString('latin1'), `${what} leaked a canary`).not.to.include(CANARY);
    // Node itself refuses some request lines (400, 414, 431) before the app sees them; the
    // app's own refusals are always the envelope.
    if (reply.headers['content-type']?.[0]?.startsWith('application/json'))
      expect(isEnvelope(reply.body.toString('utf8')), what).to.equal(true);
  }

  it('the controls: the real id answers 200 raw and percent-encoded, an unknown one 404', async () => {
    for (const prefix of PREFIXES) {
      for (const id of ['evm:sepolia', 'evm%3Asepolia', 'evm%3asepolia'])
        expect((await send('GET', `${prefix}${id}`)).status, `${prefix}${id}`).to.equal(200);
      expect((await send('GET', `${prefix}evm:nope`)).status).to.equal(404);
    }
  });

  it(`${HOSTILE.length} hostile ids x 2 prefixes, GET item and history, PATCH: all 4xx, nothing outside read or written`, async () => {
    const outside = outsideOf();
    const inside = insideOf();
    let requests = 0;
    for (const prefix of PREFIXES) {
      for (const id of HOSTILE) {
        for (const target of [`${prefix}${id}`, `${prefix}${id}/history`]) {
          expectRefused(await send('GET', target), `GET ${target.slice(0, 120)}`);
          requests++;
        }
        const target = `${prefix}${id}`;
        expectRefused(
          await send('PATCH', target, JSON.stringify({ rpc_urls: ['https://hostile.example.com'] })),
          `PATCH ${target.slice(0, 120)}`,
        );
        requests++;
      }
    }
    expect(requests).to.equal(HOSTILE.length * PREFIXES.length * 3);
    expect([...outsideOf()], 'files outside the config folder changed or appeared').to.deep.equal([...outside]);
    expect([...insideOf()], 'files inside the config folder changed').to.deep.equal([...inside]);
    expect((await send('GET', '/api/v1/networks/evm:sepolia')).body.toString()).to.include('rpc.example.com');
  });
});
