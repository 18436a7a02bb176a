/**
 * A built server whose environment holds provider keys of two families and unrelated secrets, with
 * SECRET_REFS_ALLOWED letting `evm:*` name ETH_* (and, to show they stay refused, GIT_* and API_*)
 * and `solana:*` SOL_*. Tokens: a reader, a writer, a revealing writer; API_KEY is the admin.
 * evm:sepolia references ETH_SEPOLIA_URL, evm:holesky ETH_HOLESKY_URL.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChild, type ChildServer } from './child-server.js';
import { within } from './deadline.js';
import { makeConfigDir, removeDir } from './fixtures.js';

export const KEY = 'Kx9aQ2Lm7pRt4w';
export const HOLESKY_KEY = 'H0lEskyK3y55aa';
export const SEPOLIA_VALUE = `https://eth-sepolia.g.alchemy.com/v2/${KEY}`;
export const SEPOLIA_MASK = 'https://eth-sepolia.g.alchemy.com/v2/***';
export const TOKENS = {
  reader: 'ncfg_reader-0123456789abcdef0123456789abcdef',
  writer: 'ncfg_writer-0123456789abcdef0123456789abcdef',
  revealer: 'ncfg_reveal-0123456789abcdef0123456789abcdef',
  admin: 'ncfg_apikey-0123456789abcdef0123456789abcdef',
};

/** Every variable a network might try to reach, with a value no answer or log line may hold. */
export const SECRETS: Record<string, string> = {
  ETH_SEPOLIA_URL: SEPOLIA_VALUE,
  ETH_OTHER_URL: 'https://eth-sepolia.infura.io/v3/0th3rK3yValue99',
  ETH_HOLESKY_URL: `http://rpc.example.org/holesky/${HOLESKY_KEY}`,
  SOL_SECRET_URL: 'https://solana-mainnet.example.com/SolK3yValue77',
  SENTRY_DSN: 'https://5entryPublicK3y@o12345.ingest.sentry.io/4505',
  ETH: 'https://eth.example.com/EthBareK3y11',
  XETH_URL: 'https://x.example.com/XethK3y22',
  eth_lower_url: 'https://lower.example.com/L0werK3y33',
  GIT_FORGE_TOKEN: 'ghp_F0rgeT0kenValue44',
  API_KEY: TOKENS.admin,
};

export const BASE = [
  'rpc_urls:',
  '  - type: env',
  '    value: ETH_SEPOLIA_URL',
  '  - url: https://public.example.com',
  '    weight: 10',
  'chain_id: 11155111',
  'required_confirmations: 1',
  'symbol: ETH',
  '',
].join('\n');
const HOLESKY = 'rpc_urls:\n  - type: env\n    value: ETH_HOLESKY_URL\nchain_id: 17000\n';
export const ALLOWED = 'evm:*=ETH_*,GIT_*,API_*;solana:*=SOL_*';

const sha = (t: string): string => createHash('sha256').update(t).digest('hex');
export const etagOf = (text: string): string => `"${createHash('sha256').update(text).digest('base64url')}"`;

export interface Answer {
  status: number;
  text: string;
  body: ReturnType<typeof JSON.parse>;
}

export interface SecretWorld {
  root: string;
  server: ChildServer;
  env: Record<string, string>;
  call(token: string, route: string, init?: RequestInit): Promise<Answer>;
  patch(token: string, rpcUrls: unknown[]): Promise<Answer>;
  file(): string;
  /** evm/sepolia.yaml written as `text`, resolved once the server serves those bytes. */
  serve(text: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startSecretWorld(): Promise<SecretWorld> {
  const root = makeConfigDir({ 'evm/sepolia.yaml': BASE, 'evm/holesky.yaml': HOLESKY });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-refs-'));
  const tokens = path.join(dir, 'tokens.yaml');
  const entry = (name: keyof typeof TOKENS, role: string, more = ''): string =>
    `  - name: ${name}\n    sha256: "${sha(TOKENS[name])}"\n    role: ${role}\n${more}`;
  writeFileSync(
    tokens,
    `tokens:\n${entry('reader', 'read')}${entry('writer', 'write')}${entry('revealer', 'write', '    reveal_secrets: true\n')}`,
  );
  const env = { ...SECRETS, CONFIG_DIR: root, API_TOKENS_FILE: tokens, SECRET_REFS_ALLOWED: ALLOWED };
  const server = await startChild(env);
  const call = async (token: string, route: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(`${server.url}${route}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    const text = await res.text();
    return { status: res.status, text, body: text.startsWith('{') ? JSON.parse(text) : null };
  };
  const sepolia = path.join(root, 'evm/sepolia.yaml');
  return {
    root,
    server,
    env,
    call,
    patch: (token, rpcUrls) =>
      call(token, '/api/v1/networks/evm:sepolia', { method: 'PATCH', body: JSON.stringify({ rpc_urls: rpcUrls }) }),
    file: () => readFileSync(sepolia, 'utf8'),
    async serve(text) {
      if (readFileSync(sepolia, 'utf8') !== text) writeFileSync(sepolia, text);
      await within(
        (async () => {
          while ((await fetchEtag()) !== etagOf(text)) await new Promise((r) => setTimeout(r, 20));
        })(),
        10_000,
        'the file served',
      );
    },
    async stop() {
      await server.stop();
      removeDir(root);
      rmSync(dir, { recursive: true, force: true });
    },
  };

  async function fetchEtag(): Promise<string | null> {
    const res = await fetch(`${server.url}/api/v1/networks/evm:sepolia`, {
      headers: { authorization: `Bearer ${TOKENS.reader}` },
    });
    await res.text();
    return res.headers.get('etag');
  }
}

/** The part of each value of SECRETS that is its secret. */
const MARKERS = [
  KEY,
  HOLESKY_KEY,
  '0th3rK3yValue99',
  'SolK3yValue77',
  '5entryPublicK3y',
  'EthBareK3y11',
  'XethK3y22',
  'L0werK3y33',
  'ghp_F0rgeT0kenValue44',
  TOKENS.admin,
];

/** The secrets `text` holds, in any case (none, for a clean answer or log line). */
export function secretsIn(text: string): string[] {
  const lower = text.toLowerCase();
  return MARKERS.filter((m) => lower.includes(m.toLowerCase()));
}
