/**
 * An evm chain's RPC endpoint on loopback for `netcfg add`'s tests: it answers eth_chainId and
 * eth_blockNumber (a fixed head), and eth_getBlockByNumber with timestamps `blockSeconds` apart, so
 * the block time can be measured; `delayMs` makes it slow. `deadUrl()` is a loopback port nothing
 * listens on. The same chain registry helpers write an ethereum-lists chains.json naming them.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface ChainStandIn {
  url: string;
  /** Requests received (a batch is one). */
  requests: number;
  close(): Promise<void>;
}

export interface StandInOptions {
  chainId: number;
  head: number;
  blockSeconds?: number;
  delayMs?: number;
}

interface Call {
  id: unknown;
  method: string;
  params?: unknown[];
}

export async function startChainStandIn(options: StandInOptions): Promise<ChainStandIn> {
  const hex = (n: number): string => `0x${n.toString(16)}`;
  const answer = ({ method, params }: Call): unknown => {
    if (method === 'eth_chainId') return hex(options.chainId);
    if (method === 'eth_blockNumber') return hex(options.head);
    if (method === 'eth_getBlockByNumber') {
      const n = Number.parseInt(String(params?.[0]), 16);
      return { number: hex(n), timestamp: hex(1_700_000_000 + n * (options.blockSeconds ?? 2)) };
    }
    return undefined;
  };
  const standIn: ChainStandIn = { url: '', requests: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      standIn.requests++;
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
      const reply = (call: Call) => {
        const result = answer(call);
        return result === undefined
          ? { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } }
          : { jsonrpc: '2.0', id: call.id, result };
      };
      const body = JSON.stringify(Array.isArray(parsed) ? parsed.map(reply) : reply(parsed));
      const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      if (options.delayMs) setTimeout(send, options.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}

/** A loopback URL nothing listens on: a port opened and closed again. */
export async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}

/** One chain of an ethereum-lists chains.json. */
export function chainEntry(chainId: number, name: string, shortName: string, rpc: string[], more: object = {}): object {
  return {
    name,
    chain: 'ETH',
    rpc,
    faucets: [],
    nativeCurrency: { name: 'Ether', symbol: 'TST', decimals: 18 },
    infoURL: 'https://example.org',
    shortName,
    chainId,
    networkId: chainId,
    explorers: [{ name: 'scan', url: `https://scan.${shortName}.example.org`, standard: 'EIP3091' }],
    ...more,
  };
}

/** Writes `chains` as `<dir>/chains.json`; returns its path. */
export function writeRegistry(dir: string, chains: unknown): string {
  const file = path.join(dir, 'chains.json');
  writeFileSync(file, typeof chains === 'string' ? chains : JSON.stringify(chains, null, 2));
  return file;
}
