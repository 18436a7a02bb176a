/**
 * A front for a stand-in relayer (test/helpers/stand-in-relayer.ts): a real HTTP server on loopback
 * that forwards every request to it, as a proxy in front of a relayer does, with one quirk at a time:
 * - `perPageCap`: the list's `per_page` lowered to it before it reaches the relayer, which answers
 *   the one it applied in `pagination.per_page` (src/api/controllers/network.rs, v1.8.0);
 * - `echoAuth`: every answer is a 502 whose text repeats the Authorization header it was sent, raw,
 *   upper-cased, URL-encoded and in base64 (a proxy's debug error page);
 * - `huge`: the list answers pages of `hugePageBytes` bytes of networks without end, never reaching
 *   the relayer; `served` counts the bytes it wrote.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RelayerFront {
  url: string;
  quirk: 'none' | 'echoAuth' | 'huge';
  perPageCap: number | null;
  hugePageBytes: number;
  /** Bytes of list pages written in `huge`. */
  served: number;
  /** List pages asked, in order (their query). */
  listed: string[];
  close(): Promise<void>;
}

export async function startRelayerFront(behind: string): Promise<RelayerFront> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/v1/networks') front.listed.push(url.search);
    if (front.quirk === 'echoAuth') {
      const auth = req.headers.authorization ?? '';
      const said =
        `upstream refused request with ${auth} (${auth.toUpperCase()}; ${encodeURIComponent(auth)}; ` +
        `${Buffer.from(auth.slice(7)).toString('base64')})`;
      return void res
        .writeHead(502, { 'content-type': 'application/json' })
        .end(JSON.stringify({ success: false, data: null, error: said }));
    }
    if (front.quirk === 'huge' && url.pathname === '/api/v1/networks') return huge(url, res);
    if (front.perPageCap !== null && url.searchParams.has('per_page')) {
      url.searchParams.set('per_page', String(Math.min(Number(url.searchParams.get('per_page')), front.perPageCap)));
    }
    const forward = http.request(
      `${behind}${url.pathname}${url.search}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });

  /** One page of networks, each padded to fill `hugePageBytes`; total_items says there are always more. */
  function huge(url: URL, res: http.ServerResponse): void {
    const page = Number(url.searchParams.get('page') ?? 1);
    const pad = 'x'.repeat(Math.max(0, Math.floor(front.hugePageBytes / 100) - 100));
    const data = Array.from({ length: 100 }, (_, i) => ({
      id: `evm:huge-${page}-${i}`,
      name: `huge-${page}-${i}`,
      network_type: 'evm',
      rpc_urls: [{ url: 'https://h.example.com', weight: 100 }],
      tags: [pad],
    }));
    const body = JSON.stringify({
      success: true,
      data,
      error: null,
      pagination: { current_page: page, per_page: 100, total_items: 1_000_000 },
    });
    front.served += Buffer.byteLength(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const front: RelayerFront = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    quirk: 'none',
    perPageCap: null,
    hugePageBytes: 1 << 20,
    served: 0,
    listed: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return front;
}
