/**
 * No secret part in anyone's words (issue 49), on the built server and the built CLI: stand-in
 * providers on loopback (test/helpers/echo-rpc.ts) repeat the path, query and headers they were
 * sent in JSON-RPC errors, HTTP error bodies, redirects to the upper-cased path, an answered head
 * and an answered genesis hash. Each network's URL is a secret reference whose value holds
 * user-info, a key in its path and query values; every answer, event, metric, log line, commit
 * and CLI output is searched for each part as sent, decoded, lower- and upper-cased, encoded and
 * (the user-info) as its Basic authorization.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/paths.js';
import { UNSHOWN } from '../../src/redact.js';
import { startChild, type ChildServer } from '../helpers/child-server.js';
import { startEchoRpc, type EchoMode, type EchoRpc } from '../helpers/echo-rpc.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';
import { git, initRepo } from '../helpers/git-repo.js';
import { openSse, type SseClient } from '../helpers/sse.js';

const GENESIS = 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG';
const TOKENS = {
  reader: 'ncfg_words-reader-0123456789abcdef0123456789abcd',
  writer: 'ncfg_words-writer-0123456789abcdef0123456789abcd',
};
const sha = (t: string): string => createHash('sha256').update(t).digest('hex');
const CLI = path.join(PROJECT_ROOT, 'dist', 'src', 'cli.js');

/** A network of one secret URL at its own stand-in provider (solana: beside a plain one, so self-healing may disable it). */
interface Case {
  id: string;
  mode: EchoMode;
  /** The path's hidden segment is 4 characters: too short to scrub, so the endpoint's words are dropped. */
  short?: boolean;
}
const CASES: Case[] = [
  { id: 'evm:rpcerr', mode: 'rpc_error' },
  { id: 'evm:httperr', mode: 'http_error' },
  { id: 'evm:redirect', mode: 'redirect' },
  { id: 'evm:echohead', mode: 'echo_head' },
  { id: 'evm:short', mode: 'rpc_error', short: true },
  { id: 'solana:echo', mode: 'echo_genesis' },
];

interface Secret {
  variable: string;
  url: string;
  parts: string[];
}

function secretOf(n: number, base: string, short: boolean): Secret {
  const variable = `ECHO_SECRET_URL_${n}`;
  if (short) return { variable, url: `${base}/rpc/qz9w`, parts: ['qz9w'] };
  const [user, pass, key, query, net] = [
    `u${n}Qwzuser`,
    `p${n}Xyv-Pass`,
    `Kq${n}Zpath9Secret`,
    `Vq${n}x%2Fyz+w`,
    `Mq${n}zNet`,
  ];
  const basic = Buffer.from(`${user}:${pass}`).toString('base64');
  const url = `${base.replace('://', `://${user}:${pass}@`)}/v2/${key}?apikey=${query}&net=${net}`;
  return { variable, url, parts: [user, pass, key, query, `Vq${n}x/yz w`, net, basic] };
}

/** Each spelling of `part` that must not appear. */
function spellings(part: string): string[] {
  const encoded = encodeURIComponent(part);
  return [
    ...new Set([part, part.toLowerCase(), part.toUpperCase(), encoded, encoded.toLowerCase(), encoded.toUpperCase()]),
  ];
}

function expectNoPart(where: string, text: string, secrets: Secret[]): void {
  for (const secret of secrets) {
    for (const part of secret.parts)
      for (const spelled of spellings(part))
        expect(text.includes(spelled), `${where} holds ${spelled}`).to.equal(false);
  }
}

function fileOf(c: Case, secret: Secret, plain: string | undefined): string {
  const urls = `rpc_urls:\n  - type: env\n    value: ${secret.variable}\n${plain ? `  - ${plain}\n` : ''}`;
  return c.id.startsWith('solana:')
    ? `${urls}genesis_hash: ${GENESIS}\nsymbol: SOL\n`
    : `${urls}chain_id: 11155111\nrequired_confirmations: 1\nsymbol: ETH\n`;
}

describe('probe: no secret part in any words about a secret URL (built server and CLI, echoing providers)', function () {
  this.timeout(60_000);
  let root: string;
  let dir: string;
  let server: ChildServer | undefined;
  let sse: SseClient | undefined;
  let providers: EchoRpc[] = [];
  let secrets: Secret[] = [];
  let env: Record<string, string> = {};

  const setUp = async (mode: (c: Case) => EchoMode): Promise<void> => {
    providers = await Promise.all(CASES.map((c) => startEchoRpc(mode(c))));
    const plain = await startEchoRpc('ok');
    providers.push(plain);
    secrets = CASES.map((c, n) => secretOf(n + 1, providers[n]!.url, c.short === true));
    const files = CASES.map((c, n) => [
      `${c.id.replace(':', '/')}.yaml`,
      fileOf(c, secrets[n]!, c.id.startsWith('solana:') ? `${plain.url}/` : undefined),
    ]);
    root = makeConfigDir(Object.fromEntries(files));
    initRepo(root);
    dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-words-'));
    // SECRET_REFS_ALLOWED lets every network reference these variables (ignored where the setting is not known).
    env = { ...Object.fromEntries(secrets.map((s) => [s.variable, s.url])), SECRET_REFS_ALLOWED: '*:*=ECHO_*' };
  };
  afterEach(async () => {
    sse?.close();
    sse = undefined;
    await server?.stop();
    server = undefined;
    await Promise.all(providers.splice(0).map((p) => p.close()));
    removeDir(root);
    rmSync(dir, { recursive: true, force: true });
  });

  it("rpc-health, readiness, /metrics, the change stream, a PATCH's rpc_warnings, the log and the prober's commits hold no part", async () => {
    await setUp(() => 'ok');
    const tokens = path.join(dir, 'tokens.yaml');
    const entry = (name: keyof typeof TOKENS, role: string): string =>
      `  - name: ${name}\n    sha256: "${sha(TOKENS[name])}"\n    role: ${role}\n`;
    writeFileSync(tokens, `tokens:\n${entry('reader', 'read')}${entry('writer', 'write')}`);
    const heal = {
      RPC_AUTO_DISABLE: 'true',
      RPC_AUTO_DISABLE_PROBES: '2',
      RPC_AUTO_DISABLE_MS: '0',
      GIT_COMMIT: 'true',
    };
    const s = await startChild({
      CONFIG_DIR: root,
      API_TOKENS_FILE: tokens,
      RPC_PROBE_INTERVAL_MS: '1000',
      RPC_PROBE_ON_PATCH: 'warn',
      ...heal,
      ...env,
    });
    server = s;
    const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
    const read = async (
      route: string,
      token: string | null = TOKENS.reader,
      init: RequestInit = {},
    ): Promise<string> => {
      const headers = { ...(token ? auth(token) : {}), 'content-type': 'application/json' };
      const res = await fetch(`${s.url}${route}`, { ...init, headers });
      return res.text();
    };
    sse = await openSse(`${s.url}/api/v1/networks/events`, auth(TOKENS.reader));
    for (const [n, c] of CASES.entries()) providers[n]!.mode = c.mode; // every URL's status changes now, while the stream listens
    const changed = (id: string) => (l: Record<string, unknown>) => {
      const change = l.rpc_health as { id?: string; status?: string } | undefined;
      return l.msg === 'rpc health change' && change?.id === id && change.status !== 'ok';
    };
    for (const c of CASES) await s.untilLog(changed(c.id), 15_000, `${c.id}'s change of status`);
    await s.untilLog((l) => l.msg === 'rpc self-healing: URL disabled', 15_000, "the solana secret URL's disable");
    const rpcEvents = (): string[] => sse!.events.filter((e) => e.event === 'rpc_health').map((e) => e.data);
    while (!CASES.every((c) => rpcEvents().some((d) => d.includes(`"${c.id}"`))))
      await sse.waitFor(sse.events.length + 1, 15_000);

    const answers: Record<string, string> = {};
    for (const c of CASES) answers[`rpc-health of ${c.id}`] = await read(`/api/v1/networks/${c.id}/rpc-health`);
    answers['GET /api/v1/rpc-health'] = await read('/api/v1/rpc-health');
    answers['readiness (reader)'] = await read('/api/v1/ready');
    answers['readiness (no token)'] = await read('/api/v1/ready', null);
    answers['/metrics'] = await read('/metrics');
    for (const c of CASES.filter((x) => x.id.startsWith('evm:'))) {
      const served = JSON.parse(await read(`/api/v1/networks/${c.id}`, TOKENS.writer)) as {
        data: { rpc_urls: unknown[] };
      };
      const body = JSON.stringify({ rpc_urls: served.data.rpc_urls }); // sent back as served: the reference stays
      answers[`PATCH ${c.id}`] = await read(`/api/v1/networks/${c.id}`, TOKENS.writer, { method: 'PATCH', body });
    }
    answers['the change stream'] = sse.events.map((e) => `${e.event} ${e.data}`).join('\n');
    answers['the log'] = s.logs.map((l) => JSON.stringify(l)).join('\n');
    answers['git log'] = git(root, 'log', '-p', '--format=%an%n%B');
    for (const [where, text] of Object.entries(answers)) expectNoPart(where, text, secrets);

    // What was scrubbed is still said, and what could not be is replaced by the fixed sentence.
    type Health = Array<{ status: string; error: string | null }>;
    const health = (id: string): Health => (JSON.parse(answers[`rpc-health of ${id}`]!) as { data: Health }).data;
    expect(health('evm:rpcerr')[0]?.error).to.match(/invalid api key in \/v2\/\*\*\*\?apikey=\*\*\*&net=\*\*\*/);
    expect(health('evm:redirect')[0]?.error).to.match(
      /redirected \(302\) to http:\/\/\*\*\*@127\.0\.0\.1:\d+\/V2\/\*\*\*\?APIKEY=\*\*\*&NET=\*\*\*/,
    );
    expect(health('evm:echohead')[0]?.error).to.match(/\/v2\/\*\*\*…/);
    expect(health('evm:short')[0]?.error).to.equal(UNSHOWN);
    expect(health('solana:echo')[0]?.status).to.equal('wrong_chain');
    const warnings = (JSON.parse(answers['PATCH evm:short']!) as { rpc_warnings: Array<{ error: string }> })
      .rpc_warnings;
    expect(warnings.map((w) => w.error)).to.deep.equal([UNSHOWN]);
    const rpcErr = JSON.parse(answers['PATCH evm:rpcerr']!) as { rpc_warnings: Array<{ error: string }> };
    expect(rpcErr.rpc_warnings[0]?.error).to.include('invalid api key in /v2/***');
    expect(answers['git log'])
      .to.match(/was wrong_chain for 2 probes in a row/)
      .and.include('invalid api key in /v2/***');
  });

  it('validate --probe, as text and as JSON, holds no part', async () => {
    await setUp((c) => c.mode);
    const outputs: string[] = [];
    for (const format of [[], ['--format', 'json']]) {
      const args = [CLI, 'validate', root, '--probe', ...format];
      const out = await promisify(execFile)(process.execPath, args, {
        env: { PATH: process.env.PATH ?? '', ...env },
      }).catch((err: { stdout: string }) => err);
      outputs.push(out.stdout);
      expectNoPart(`validate --probe ${format.join(' ')}`, out.stdout, secrets);
    }
    expect(outputs[0]).to.include('invalid api key in /v2/***').and.include(UNSHOWN);
    const json = JSON.parse(outputs[1]!) as { problems: Array<{ error: string }> };
    expect(json.problems).to.have.length(CASES.length);
  });
});
