/**
 * The floor of netcfg's write design: about the least a PATCH can cost over HTTP when its disk
 * steps run on a thread of their own, as netcfg's do (threaded-fs.ts), so that reads never wait on
 * a fsync. Koa + @koa/router + koa-bodyparser; each PATCH renders its rpc_urls as YAML and sends
 * one message to a disk thread, which takes a lock folder in `.locks/` (mkdir), writes a temp file
 * in `.tmp/`, fsyncs it, renames it over the target, fsyncs the folder and answers, then removes
 * the lock folder: the disk loop's steps (the rename across folders, as netcfg's) plus the lock,
 * and one hand-off each way. Not quite the least: the rename frees the replaced inode, which
 * netcfg defers to after its answer (fs-seam.ts renameIfUnchangedSync). Nothing else: no read of
 * the current file, no If-Match, no validation, no check of the result, no watcher, no index. The
 * targets are hidden names in DIR (one per network id), which netcfg's watcher ignores; they are
 * removed when the server stops.
 *
 * Env: PORT, DIR (the folder written in: the disk loop's). GET /api/v1/health answers once up.
 */
import { mkdirSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { replaceDurably } from './durable-replace.js';

interface Write {
  seq: number;
  tmp: string;
  target: string;
  lock: string;
  text: string;
}

if (!isMainThread) {
  parentPort?.on('message', ({ seq, tmp, target, lock, text }: Write) => {
    mkdirSync(lock);
    replaceDurably(tmp, target, text);
    parentPort?.postMessage(seq);
    rmdirSync(lock); // after the answer, as netcfg lets its lock go
  });
} else {
  const { default: Koa } = await import('koa');
  const { default: Router } = await import('@koa/router');
  const { default: bodyParser } = await import('koa-bodyparser');
  const port = Number(process.env.PORT);
  const dir = process.env.DIR ?? '';
  if (!Number.isInteger(port) || dir === '') throw new Error('PORT and DIR must be set');
  const root = path.dirname(dir);
  const tempDir = path.join(root, '.tmp');
  const lockDir = path.join(root, '.locks');
  mkdirSync(tempDir, { recursive: true });
  mkdirSync(lockDir, { recursive: true });

  const disk = new Worker(new URL(import.meta.url));
  const waiting = new Map<number, (seq: number) => void>();
  disk.on('message', (seq: number) => {
    waiting.get(seq)?.(seq);
    waiting.delete(seq);
  });
  const targets = new Set<string>();
  let seq = 0;
  /** Resolves with the write's number once it is durable. */
  const write = (id: string, text: string): Promise<number> => {
    const name = id.replace(/[^a-z0-9_-]/g, '-');
    const target = path.join(dir, `.bench-floor-${name}.yaml`);
    targets.add(target);
    const n = ++seq;
    return new Promise((resolve) => {
      waiting.set(n, resolve);
      disk.postMessage({ seq: n, tmp: path.join(tempDir, `.bench-floor-${name}.${process.pid}.${n}.tmp`), target, lock: path.join(lockDir, `.bench-floor-${name}.lock`), text } satisfies Write);
    });
  };

  const app = new Koa();
  const router = new Router();
  router.get('/api/v1/health', (ctx) => {
    ctx.body = { success: true, data: { status: 'ok' }, error: null };
  });
  router.patch('/api/v1/networks/:network_id', async (ctx) => {
    const id = String(ctx.params.network_id);
    const urls = ((ctx.request.body as { rpc_urls?: unknown[] }).rpc_urls ?? []).map((u) => (typeof u === 'string' ? { url: u } : (u as { url: string; weight?: number })));
    const text = `# ${id}\nrpc_urls:\n${urls.map((u) => `  - url: ${u.url}\n${u.weight === undefined ? '' : `    weight: ${u.weight}\n`}`).join('')}`.padEnd(420, '#') + '\n';
    ctx.set('ETag', `"${await write(id, text)}"`);
    ctx.body = { success: true, data: { id, rpc_urls: urls }, error: null };
  });
  app.use(bodyParser());
  app.use(router.routes());
  const server = app.listen(port, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ msg: 'listening', port })}\n`));
  server.keepAliveTimeout = 5000;
  process.on('SIGTERM', () => {
    server.close();
    void disk.terminate().then(() => {
      for (const target of targets) rmSync(target, { force: true });
      process.exit(0);
    });
  });
}
