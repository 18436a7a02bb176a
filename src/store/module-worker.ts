/**
 * Starts a worker thread on a sibling module of the store: `.js` when built, `.ts` when run
 * through tsx (tests, development), where the worker must register tsx's loader first.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const EXT = path.extname(fileURLToPath(import.meta.url));

export function startModuleWorker(name: string, workerData: unknown): Worker {
  const url = new URL(`./${name}${EXT}`, import.meta.url);
  if (EXT !== '.ts') return new Worker(url, { workerData });
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
