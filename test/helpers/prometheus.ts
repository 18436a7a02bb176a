/**
 * Debian's Prometheus for the metrics' tests (`make test` installs the package; PROMTOOL_PATH and
 * PROMETHEUS_PATH name others): `promtool check metrics` fed an exposition on its standard input,
 * and a real Prometheus server on a free loopback port, its storage in a temp folder, scraping
 * the targets it is given every 200 ms, asked over its HTTP API and stopped by the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onFreePort } from './reliability-child.js';

export const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';
export const PROMETHEUS = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';

function requireTool(file: string): void {
  if (!existsSync(file))
    throw new Error(
      `No ${path.basename(file)} at ${file}: \`make test\` installs Debian's prometheus package; elsewhere set PROMTOOL_PATH and PROMETHEUS_PATH.`,
    );
}

/** `promtool check metrics < text`: its exit code and what it printed (one line per problem). */
export function promtoolCheck(text: string): Promise<{ code: number | null; problems: string[] }> {
  requireTool(PROMTOOL);
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    child.stdout.on('data', (d: Buffer) => (said += d.toString()));
    child.stderr.on('data', (d: Buffer) => (said += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, problems: said.split('\n').filter((l) => l.trim() !== '') }));
    child.stdin.end(text);
  });
}

export interface ScrapeTarget {
  job: string;
  /** `127.0.0.1:<port>` */
  address: string;
  /** Sent as `Authorization: Bearer <token>`, from a file as the docs show. */
  token?: string;
}

export interface PrometheusServer {
  url: string;
  /** One instant query's result (`/api/v1/query`): each series' labels and value. */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>>;
  stop(): Promise<void>;
}

/** A Prometheus scraping `targets` every 200 ms; resolves once it answers ready, rejects past `deadlineMs`. */
export async function startPrometheus(targets: ScrapeTarget[], deadlineMs = 15_000): Promise<PrometheusServer> {
  requireTool(PROMETHEUS);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netcfg-prometheus-'));
  const jobs = targets.map(({ job, address, token }) => {
    const auth =
      token === undefined
        ? ''
        : `    authorization:\n      type: Bearer\n      credentials_file: ${path.join(dir, `${job}.token`)}\n`;
    if (token !== undefined) writeFileSync(path.join(dir, `${job}.token`), token, { mode: 0o600 });
    return `  - job_name: ${job}\n    scrape_interval: 200ms\n    scrape_timeout: 200ms\n${auth}    static_configs:\n      - targets: ['${address}']\n`;
  });
  writeFileSync(
    path.join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: 200ms\n  scrape_timeout: 200ms\nscrape_configs:\n${jobs.join('')}`,
  );
  const { url, stop } = await onFreePort((port) => servePrometheus(dir, port, deadlineMs)).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    url,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await res.json()) as {
        status: string;
        error?: string;
        data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
      };
      if (body.status !== 'success') throw new Error(`query ${promql}: ${body.error}`);
      return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    stop,
  };
}

/**
 * Prometheus on `port`, once its own readiness answers (a server that took the port first answers otherwise, and
 * Prometheus exits saying the address is in use). Its `stop` removes `dir` too.
 */
export async function servePrometheus(
  dir: string,
  port: number,
  deadlineMs: number,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const url = `http://127.0.0.1:${port}`;
  const args = [
    `--config.file=${path.join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ];
  const child: ChildProcess = spawn(PROMETHEUS, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr?.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    // Bounded: what holds the port may be a server that never answers.
    const ready = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1000) }).then(
      async (r) => r.ok && (await r.text()).includes('Prometheus'),
      () => false,
    );
    if (ready && child.exitCode === null)
      return { url, stop: () => kill().then(() => rmSync(dir, { recursive: true, force: true })) };
    if (child.exitCode !== null || Date.now() > deadline) {
      await kill();
      throw new Error(`Prometheus was not ready within ${deadlineMs} ms (exit ${child.exitCode}): ${said}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
