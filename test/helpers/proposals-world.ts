/**
 * A world for proposals on the built server: a bare remote served by `git daemon` on loopback
 * (evm:sepolia, evm:mainnet, solana:devnet), a stand-in GitHub, a tokens file with a token of each
 * role (and scoped ones), and the server as a child process with GIT_SYNC and GIT_PROPOSALS.
 */
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startChild, type ChildServer } from './child-server.js';
import { bareOf, cloneOf, startGitRemote, type GitRemote } from './git-daemon.js';
import { git } from './git-repo.js';
import { networkYaml } from './fixtures.js';
import { STAND_IN_REPO, STAND_IN_TOKEN, startStandInForge, type StandInForge } from './stand-in-forge.js';

const sha = (token: string): string => createHash('sha256').update(token).digest('hex');

/** One token per role and scope, by name: `ncfg_<name>-...`. */
export const TOKENS = {
  admin: { role: 'admin', networks: null },
  writer: { role: 'write', networks: null },
  reader: { role: 'read', networks: null },
  'proposer-eu': { role: 'propose', networks: null },
  'proposer-us': { role: 'propose', networks: null },
  'evm-proposer': { role: 'propose', networks: ['evm:*'] },
  'mainnet-reader': { role: 'read', networks: ['evm:mainnet'] },
} as const;
export type TokenName = keyof typeof TOKENS;
export const tokenOf = (name: TokenName): string => `ncfg_${name}-0123456789abcdef0123456789abcdef`;

export interface ProposalsWorld {
  remote: GitRemote;
  forge: StandInForge;
  server: ChildServer;
  /** Every answer's text, for the check that the forge's token is in none. */
  texts: string[];
  call(
    method: string,
    route: string,
    token: TokenName | null,
    body?: unknown,
  ): Promise<{ status: number; headers: Headers; json: Record<string, unknown>; text: string }>;
  /** git in the bare repository the daemon serves. */
  bare(...args: string[]): string;
  /** The oid of a branch on the remote ('' when there is none), as `git ls-remote` tells it. */
  lsRemote(branch: string): string;
  close(): Promise<void>;
}

export async function startProposalsWorld(
  env: Record<string, string> = {},
  forgeMode: StandInForge['mode'] = 'normal',
): Promise<ProposalsWorld> {
  const remote = await startGitRemote({
    'evm/sepolia.yaml': networkYaml(),
    'evm/mainnet.yaml': networkYaml(),
    'solana/devnet.yaml': networkYaml(),
  });
  const forge = await startStandInForge('github', { token: STAND_IN_TOKEN, repo: STAND_IN_REPO.github });
  forge.mode = forgeMode;
  const clone = cloneOf(remote, 'replica');
  const tokensFile = path.join(remote.dir, 'tokens.yaml');
  const entries = Object.entries(TOKENS).map(([name, t]) => {
    const scope = t.networks ? `\n    networks: ${JSON.stringify(t.networks)}` : '';
    return `  - name: ${name}\n    sha256: "${sha(tokenOf(name as TokenName))}"\n    role: ${t.role}${scope}`;
  });
  writeFileSync(tokensFile, `tokens:\n${entries.join('\n')}\n`);
  const server = await startChild({
    CONFIG_DIR: path.join(clone, 'config', 'networks'),
    API_TOKENS_FILE: tokensFile,
    GIT_SYNC: 'true',
    GIT_SYNC_INTERVAL_MS: '300',
    GIT_REMOTE_TIMEOUT_MS: '3000',
    GIT_PROPOSALS: 'github',
    GIT_FORGE_URL: forge.url,
    GIT_FORGE_REPO: STAND_IN_REPO.github,
    GIT_FORGE_TOKEN: STAND_IN_TOKEN,
    LOG_LEVEL: 'debug',
    ...env,
  });
  const texts: string[] = [];
  const world: ProposalsWorld = {
    remote,
    forge,
    server,
    texts,
    async call(method, route, token, body) {
      const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${tokenOf(token)}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${server.url}${route}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).catch((err: Error) => {
        // fetch says only "fetch failed": the cause, and whether the server is still there, say why.
        const cause = (err.cause as Error | undefined)?.message ?? 'no cause given';
        const last = server.logs.slice(-5).map((l) => JSON.stringify(l));
        throw new Error(
          `${method} ${route}: ${err.message} (${cause}); server exit code ${server.process.exitCode}; last log lines:\n${last.join('\n')}`,
        );
      });
      const text = await res.text();
      texts.push(text, JSON.stringify([...res.headers]));
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not JSON: the text is kept
      }
      return { status: res.status, headers: res.headers, json, text };
    },
    bare: (...args) => git(bareOf(remote), ...args).trim(),
    lsRemote: (branch) => git(remote.dir, 'ls-remote', remote.url, `refs/heads/${branch}`).trim().split('\t')[0] ?? '',
    async close() {
      await server.stop();
      await forge.close();
      await remote.stop();
      rmSync(remote.dir, { recursive: true, force: true, maxRetries: 20 });
    },
  };
  return world;
}
