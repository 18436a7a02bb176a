/**
 * Starting the servers under test, each as its own process on a free loopback port: netcfg (the
 * built dist/src/main.js), the raw node:http and bare Koa baselines, and json-server 0.17.4.
 * The baselines are TypeScript; they are transpiled once per run into bench/.tmp/baselines/ and
 * run by plain node, so no loader (tsx) slows their start or their requests.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { BENCH_DIR, PROJECT_DIR, TMP_DIR } from './fixtures.js';
import { freePort, startProcess, waitForStatus, type Child } from './processes.js';

export interface Server {
  name: string;
  url: string;
  child: Child;
  /** performance.now() when it first answered its readiness probe. */
  readyAt: number;
  /** Sent with every request the bench makes to it: netcfg's bearer token in the read rows. */
  headers?: Record<string, string>;
}

/** BENCH_NETCFG_MAIN runs another build (e.g. a fix being tried) under the same harness. */
export const NETCFG_MAIN = process.env.BENCH_NETCFG_MAIN
  ? path.resolve(process.env.BENCH_NETCFG_MAIN)
  : path.join(PROJECT_DIR, 'dist', 'src', 'main.js');
const JSON_SERVER_BIN = path.join(PROJECT_DIR, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');
const BASELINE_SRC = path.join(BENCH_DIR, 'baselines');
const BASELINE_OUT = path.join(TMP_DIR, 'baselines');

/** bench/baselines/*.ts -> bench/.tmp/baselines/*.js, or `outDir` (ESM: the project's package.json says "module"). */
export function compileBaselines(outDir = BASELINE_OUT): void {
  mkdirSync(outDir, { recursive: true });
  for (const file of readdirSync(BASELINE_SRC).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(path.join(BASELINE_SRC, file), 'utf8');
    const out = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file,
    });
    writeFileSync(path.join(outDir, file.replace(/\.ts$/, '.js')), out.outputText);
  }
}

export function baselineScript(name: string): string {
  return path.join(BASELINE_OUT, `${name}.js`);
}

export interface NetcfgOptions {
  logLevel?: string;
  /** Extra node flags, e.g. --cpu-prof for profiling. */
  nodeArgs?: string[];
  deadlineMs?: number;
  /** Another build's main.js (default NETCFG_MAIN). */
  main?: string;
  /** Name of the log file (bench/.tmp/logs/<logName>.log); defaults to the server's name. */
  logName?: string;
  /** INDEX_CACHE for this server; default 'off', so every row but the warm start-up loads cold. */
  indexCache?: string;
  /** More environment (GIT_SYNC for the git rows). */
  env?: Record<string, string>;
}

export interface Launched {
  child: Child;
  /** Resolves once /api/v1/ready answers 200 (every file loaded, watcher on). */
  ready: Promise<Server>;
}

/**
 * netcfg on `configDir`, not waited for. With `nice`, it loads at that CPU priority (a server that
 * takes a minute to load can do so in the background of timed phases, yielding the CPU to them).
 */
export async function launchNetcfg(
  name: string,
  configDir: string,
  options: NetcfgOptions & { nice?: number } = {},
): Promise<Launched> {
  const port = await freePort();
  const env = {
    CONFIG_DIR: configDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: options.logLevel ?? 'info',
    INDEX_CACHE: options.indexCache ?? 'off',
    ...options.env,
  };
  const child = startProcess(
    options.logName ?? name,
    process.execPath,
    [...(options.nodeArgs ?? []), options.main ?? NETCFG_MAIN],
    env,
  );
  if (options.nice !== undefined) os.setPriority(child.pid, options.nice);
  const url = `http://127.0.0.1:${port}`;
  const ready = waitForStatus(child, `${url}/api/v1/ready`, 200, options.deadlineMs ?? 120_000).then((readyAt) => ({
    name,
    url,
    child,
    readyAt,
  }));
  ready.catch(() => undefined); // the caller awaits it; this only keeps an early failure from being "unhandled"
  return { child, ready };
}

/** netcfg on `configDir`; resolves once /api/v1/ready answers 200 (every file loaded, watcher on). */
export async function startNetcfg(name: string, configDir: string, options: NetcfgOptions = {}): Promise<Server> {
  return (await launchNetcfg(name, configDir, options)).ready;
}

/**
 * Waits until netcfg's readiness shows its watcher running (`components.watcher.state` is
 * `watching`): ready can come before the watcher has finished walking the folder, and the rows
 * that change files on disk measure a server in its steady state, not one still starting.
 */
export async function waitWatching(server: Server, deadlineMs = 120_000): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  while (performance.now() < deadline) {
    const res = await fetch(`${server.url}/api/v1/ready`, { headers: server.headers ?? {} });
    const body = (await res.json()) as { components?: { watcher?: { state?: string } } };
    if (body.components?.watcher?.state === 'watching') return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${server.name}: the watcher was not running within ${deadlineMs} ms`);
}

export async function startBaseline(name: 'raw-http' | 'koa-app', dbJson: string): Promise<Server> {
  const port = await freePort();
  const child = startProcess(name, process.execPath, [baselineScript(name)], { PORT: String(port), DB: dbJson });
  const url = `http://127.0.0.1:${port}`;
  const readyAt = await waitForStatus(child, `${url}/api/v1/networks?per_page=1`);
  return { name, url, child, readyAt };
}

/** json-server 0.17.4 as its users run it: `json-server db.json`, default logging, no --watch. */
export async function startJsonServer(dbJson: string): Promise<Server> {
  const port = await freePort();
  const child = startProcess('json-server', process.execPath, [
    JSON_SERVER_BIN,
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    dbJson,
  ]);
  const url = `http://127.0.0.1:${port}`;
  const readyAt = await waitForStatus(child, `${url}/networks?_limit=1`);
  return { name: 'json-server', url, child, readyAt };
}
