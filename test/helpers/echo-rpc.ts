/**
 * A stand-in RPC provider on loopback that repeats what it was sent, as careless providers do
 * (`invalid api key in /v2/<key>`): its request path and query (as sent, decoded, upper-cased) and
 * its headers (the Basic authorization of a URL's user-info) go into its words, in the way its
 * mode says. The mode can be changed while it runs, so a test can make a URL's status change
 * when it is listening for it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type EchoMode =
  /** Answers as a sepolia node (evm) or a devnet node (solana) at head 100. */
  | 'ok'
  /** A JSON-RPC error per call, holding the echo. */
  | 'rpc_error'
  /** HTTP 401 whose body holds the echo. */
  | 'http_error'
  /** 302 to the request's path and query upper-cased. */
  | 'redirect'
  /** eth_blockNumber answers 70 characters then the echo, so the prober cuts it inside the path. */
  | 'echo_head'
  /** getGenesisHash answers the echo: another chain, as far as netcfg can tell. */
  | 'echo_genesis';

export interface EchoRpc {
  url: string;
  mode: EchoMode;
  close(): Promise<void>;
}

const GENESIS = 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG';

export async function startEchoRpc(mode: EchoMode = 'ok'): Promise<EchoRpc> {
  const echo: EchoRpc = { url: '', mode, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const sent = req.url ?? '/';
      const words = `invalid api key in ${sent} (decoded ${decodeURIComponent(sent)}, as typed ${sent.toUpperCase()}); you sent ${JSON.stringify(req.headers)}`;
      if (echo.mode === 'http_error') return void res.writeHead(401, { 'content-type': 'text/plain' }).end(words);
      if (echo.mode === 'redirect') return void res.writeHead(302, { location: sent.toUpperCase() }).end(words);
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as
        { id: unknown; method: string } | Array<{ id: unknown; method: string }>;
      const calls = Array.isArray(parsed) ? parsed : [parsed];
      const results: Record<string, unknown> = {
        eth_chainId: '0xaa36a7',
        eth_blockNumber: echo.mode === 'echo_head' ? `${'x'.repeat(70)}${sent}` : '0x64',
        getHealth: 'ok',
        getGenesisHash: echo.mode === 'echo_genesis' ? words : GENESIS,
        getSlot: 100,
      };
      const bodies = calls.map(({ id, method }) =>
        echo.mode === 'rpc_error'
          ? { jsonrpc: '2.0', id, error: { code: -32000, message: words } }
          : { jsonrpc: '2.0', id, result: results[method] ?? null },
      );
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(Array.isArray(parsed) ? bodies : bodies[0]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  echo.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  echo.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return echo;
}
