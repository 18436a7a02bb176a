/**
 * Auth under attack: wrong keys one character off at the start, the middle and the end, other
 * lengths, other schemes and two Authorization headers, on PATCH too (the read-side suite covers
 * the GET rows): every refusal is the same 401 and writes nothing. Then timing: the key check must
 * not take longer the more leading characters of a guess are right. Over HTTP a byte comparison
 * is nanoseconds inside ~100 µs of noise and could never show, so the guard itself is timed in
 * process with a 64 KiB key, where an early-exit comparison costs microseconds more for a guess
 * wrong only at its end; interleaved batches and medians keep the check robust on a busy machine.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Context } from 'koa';
import { tokenGuard } from '../../src/http/auth.js';
import { TokenSet } from '../../src/access/token-set.js';
import { standardFiles } from '../helpers/fixtures.js';
import { openReadApp, serveApp, type ReadApp, type Served } from '../helpers/read-http.js';
import { rawExchange } from '../helpers/reliability-http.js';

const KEY = 'k3y-0123456789abcdef0123456789abcdef-XYZ';
const flip = (s: string, at: number): string => s.slice(0, at) + (s[at] === 'x' ? 'y' : 'x') + s.slice(at + 1);

const REFUSED: Array<[string, string[]]> = [
  ['no header', []],
  ['Basic scheme', [`Basic ${Buffer.from(`netcfg:${KEY}`).toString('base64')}`]],
  ['Token scheme', [`Token ${KEY}`]],
  ['key one shorter', [`Bearer ${KEY.slice(0, -1)}`]],
  ['key one longer', [`Bearer ${KEY}0`]],
  ['first character off', [`Bearer ${flip(KEY, 0)}`]],
  ['middle character off', [`Bearer ${flip(KEY, KEY.length >> 1)}`]],
  ['last character off', [`Bearer ${flip(KEY, KEY.length - 1)}`]],
  ['two headers, both right', [`Bearer ${KEY}`, `Bearer ${KEY}`]],
  ['two headers, wrong then right', [`Bearer ${flip(KEY, 3)}`, `Bearer ${KEY}`]],
];

describe('reliability: auth', function () {
  this.timeout(60_000);
  let fx: ReadApp;
  let served: Served;
  let root: string;
  let port: number;

  before(async () => {
    fx = await openReadApp(standardFiles(), { apiKey: KEY });
    served = await serveApp(fx.app);
    ({ root } = fx);
    ({ port } = served);
  });
  after(async () => {
    await served.close();
    await fx.close();
  });

  function patch(authorizations: string[]) {
    const body = JSON.stringify({ rpc_urls: ['https://intruder.example.com'] });
    const head = [
      'PATCH /api/v1/networks/evm:sepolia HTTP/1.1',
      'Host: 127.0.0.1',
      'Connection: close',
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
    ];
    return rawExchange(
      port,
      `${[...head, ...authorizations.map((a) => `Authorization: ${a}`)].join('\r\n')}\r\n\r\n${body}`,
    );
  }

  it('every refused PATCH is the same 401 and writes nothing; the right key writes', async () => {
    const file = path.join(root, 'evm/sepolia.yaml');
    const before = readFileSync(file);
    const bodies = new Set<string>();
    for (const [name, headers] of REFUSED) {
      const reply = await patch(headers);
      expect(reply.status, name).to.equal(401);
      expect(reply.headers['www-authenticate'], name).to.deep.equal(['Bearer realm="netcfg"']);
      bodies.add(reply.body.toString());
    }
    expect([...bodies], 'the 401 bodies differ, telling a caller something').to.have.length(1);
    expect(readFileSync(file).equals(before), 'a refused PATCH wrote').to.equal(true);
    expect((await patch([`Bearer ${KEY}`])).status).to.equal(200);
  });

  it('the key check takes as long for a guess wrong at its last character as at its first', () => {
    const key = Array.from({ length: 65_536 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789'[(i * 7919) % 36]).join(
      '',
    );
    const [guard] = tokenGuard(new TokenSet([], key))('read') as [
      (ctx: Context, next: () => Promise<void>) => Promise<void>,
    ];
    const ctxFor = (value: string) => ({ req: { rawHeaders: ['Authorization', value] } }) as unknown as Context;
    const early = ctxFor(`Bearer ${flip(key, 0)}`);
    const late = ctxFor(`Bearer ${flip(key, key.length - 1)}`);
    const next = async (): Promise<void> => undefined;
    const batch = (ctx: Context): number => {
      const t = process.hrtime.bigint();
      for (let i = 0; i < 10; i++) {
        try {
          guard(ctx, next).catch(() => undefined);
        } catch {
          // refused: the guard throws synchronously (it is not async, to spare each request a promise)
        }
      }
      return Number(process.hrtime.bigint() - t) / 10;
    };
    for (let i = 0; i < 100; i++) batch(i % 2 ? early : late); // warm up the JIT
    const earlyNs: number[] = [];
    const lateNs: number[] = [];
    for (let i = 0; i < 1000; i++) {
      // Pairs measured back to back, in alternating order: drift in machine load hits both alike.
      const [first, second] = i % 2 ? [early, late] : [late, early];
      const a = batch(first);
      const b = batch(second);
      earlyNs.push(first === early ? a : b);
      lateNs.push(first === early ? b : a);
    }
    const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1] as number;
    const [e, l] = [median(earlyNs), median(lateNs)];
    const gap = (l - e) / e;
    // An early-exit comparison makes the late guess slower in most pairs (73-95% measured with a
    // plain ===, normalise+=== and Buffer#equals in place of the hashes, 3-38% slower); the
    // constant-time check leaves it a coin toss (50-51%, gap under 0.5%). Failing needs both, so
    // neither a small systematic bias nor a noisy machine alone fails the test.
    const slower = lateNs.filter((t, i) => t > (earlyNs[i] as number)).length / lateNs.length;
    console.log(
      `      figures: key check median ${Math.round(e)} ns (first char wrong) vs ${Math.round(l)} ns (last ` +
        `char wrong), late slower in ${(slower * 100).toFixed(0)}% of 1000 pairs, gap ` +
        `${(gap * 100).toFixed(1)}%`,
    );
    expect(slower > 0.58 && gap > 0.02, 'the time of a refusal grows with how much of the key was right').to.equal(
      false,
    );
  });
});
