/**
 * HTTP helpers for the read-side tests: an app over a real store on a fresh folder, a real
 * listening server, and requests that supertest cannot make (any method, duplicate headers).
 */
import http from 'node:http';
import net from 'node:net';
import type Koa from 'koa';
import request from 'supertest';
import { createApp, type AppOptions } from '../../src/http/app.js';
import { addressOf, closeGracefully, listen } from '../../src/http/server.js';
import type { NetworkStore, StoreOptions } from '../../src/store/network-store.js';
import { makeConfigDir, removeDir, standardFiles } from './fixtures.js';
import { startStore } from './store.js';

export interface ReadApp {
  root: string;
  store: NetworkStore;
  app: Koa;
  agent: ReturnType<typeof request>;
  close(): Promise<void>;
}

/** A started store on a fresh folder holding `files`, and the app over it. */
export async function openReadApp(
  files: Record<string, string> = standardFiles(),
  appOptions: AppOptions = {},
  storeOptions: Partial<StoreOptions> = {},
): Promise<ReadApp> {
  const root = makeConfigDir(files);
  const store = await startStore(root, storeOptions);
  const app = createApp(store, appOptions);
  return {
    root,
    store,
    app,
    agent: request(app.callback()),
    async close() {
      await store.close();
      removeDir(root);
    },
  };
}

export interface Served {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The app on a real loopback port, with the production server settings. */
export async function serveApp(app: Koa): Promise<Served> {
  const server = await listen(app, '127.0.0.1', 0);
  const url = addressOf(server);
  return { url, port: Number(new URL(url).port), close: () => closeGracefully(server) };
}

export interface PlainResponse {
  status: number;
  /** Lower-case names; every value of a repeated header is kept. */
  headers: Record<string, string[]>;
  body: string;
}

/** One request with node:http, so that methods fetch refuses (TRACE) or supertest lacks can be sent. */
export function httpRequest(url: string, method: string, headers: Record<string, string> = {}): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { connection: 'close', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const all: Record<string, string[]> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = (res.rawHeaders[i] as string).toLowerCase();
          (all[name] ??= []).push(res.rawHeaders[i + 1] as string);
        }
        resolve({ status: res.statusCode ?? 0, headers: all, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Writes the request head byte for byte on a raw socket (so two Authorization headers really
 * arrive as two) and parses the response. The app sends Content-Length, never chunks.
 */
export function rawHttp(port: number, lines: string[]): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${[...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`));
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const split = data.indexOf('\r\n\r\n');
      const [statusLine = '', ...headerLines] = data.slice(0, split).split('\r\n');
      const headers: Record<string, string[]> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        (headers[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: data.slice(split + 4) });
    });
  });
}
