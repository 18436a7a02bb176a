/**
 * The RPC prober's rows (issue 34): GET one network while the live prober runs over 1,000 networks
 * x 3 URLs, against the same server without it (their runs interleaved), and how long
 * `netcfg validate --probe` takes over those 3,000 URLs. The URLs point at fake JSON-RPC endpoints
 * on loopback that answer the claimed chain.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_DIR, TMP_DIR } from './fixtures.js';
import { describe, measureInterleaved, type Timing } from './load.js';
import { loadRow, type Row } from './results.js';
import { startNetcfg, type Server } from './servers.js';

const NETWORKS = 1000;
const URLS = 3;
const INTERVAL_MS = 30_000;
const run = promisify(execFile);

interface Call {
  id: number;
  method: string;
}

/** A JSON-RPC endpoint on loopback answering Sepolia's chain id and a head (alone or in a batch), for any path. */
export async function fakeEndpoint(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body) as Call | Call[];
      const answer = ({ id, method }: Call): object => ({
        jsonrpc: '2.0',
        id,
        result: method === 'eth_chainId' ? '0xaa36a7' : '0x64',
      });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** `NETWORKS` evm networks in `dir`, each with one URL per port (a path of its own on each), claiming Sepolia. */
export function writeFolder(dir: string, ports: number[]): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'evm'), { recursive: true });
  for (let i = 0; i < NETWORKS; i++) {
    const urls = ports.map((port) => `  - http://127.0.0.1:${port}/n${i}`).join('\n');
    writeFileSync(
      path.join(dir, 'evm', `p${String(i).padStart(4, '0')}.yaml`),
      `# probe bench\nrpc_urls:\n${urls}\nchain_id: 11155111\n`,
    );
  }
}

async function untilProbing(server: Server): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const body = (await (await fetch(`${server.url}/api/v1/ready`)).json()) as {
      components?: { rpc?: { ok?: number } };
    };
    if ((body.components?.rpc?.ok ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the live prober found no URL within 60 s');
}

export async function probeRows(timing: Timing, logLevel: string): Promise<Row[]> {
  const endpoints = await Promise.all(Array.from({ length: URLS }, () => fakeEndpoint()));
  const dir = path.join(TMP_DIR, 'probe-1k');
  writeFolder(
    dir,
    endpoints.map((e) => (e.address() as AddressInfo).port),
  );
  const servers: Server[] = [];
  try {
    const probing = await startNetcfg('netcfg-probing', dir, {
      logLevel,
      env: { RPC_PROBE_INTERVAL_MS: String(INTERVAL_MS) },
    });
    servers.push(probing);
    const plain = await startNetcfg('netcfg-not-probing', dir, { logLevel });
    servers.push(plain);
    await untilProbing(probing);
    const id = 'evm:p0500';
    const [without, withProbe] = await measureInterleaved(
      [plain, probing].map((s) => ({ url: `${s.url}/api/v1/networks/${id}`, connections: 10, pid: s.child.pid })),
      timing,
    );
    const group = 'GET one network, live RPC prober over 1,000 networks x 3 URLs';
    console.log(describe(`${group} | off`, without!));
    console.log(describe(`${group} | on`, withProbe!));
    const workload = `GET /api/v1/networks/${id}; RPC_PROBE_INTERVAL_MS=${INTERVAL_MS} over ${NETWORKS * URLS} URLs on loopback`;
    const rows = [
      loadRow('probe-get/netcfg-off', group, 'netcfg, prober off', workload, 10, without!),
      loadRow('probe-get/netcfg', group, 'netcfg, prober on', workload, 10, withProbe!),
    ];
    const started = performance.now();
    await run(process.execPath, [path.join(PROJECT_DIR, 'dist', 'src', 'cli.js'), 'validate', '--probe', dir], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`netcfg validate --probe, ${NETWORKS} networks x ${URLS} URLs: ${seconds.toFixed(1)} s`);
    rows.push({
      key: 'probe-validate/netcfg',
      group: 'netcfg validate --probe',
      server: 'netcfg CLI',
      workload: `${NETWORKS} networks x ${URLS} URLs on loopback, 32 calls at a time`,
      value: seconds,
      unit: 's',
    });
    return rows;
  } finally {
    await Promise.all(
      servers.map(async (s) => {
        s.child.process.kill('SIGTERM');
        await s.child.exited;
      }),
    );
    for (const e of endpoints) {
      e.closeAllConnections();
      e.close();
    }
  }
}
