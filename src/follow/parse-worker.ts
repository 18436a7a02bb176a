/**
 * The main thread's side of parse-thread.ts: one thread per followed file, started at the first
 * parse and kept (a file changes again and again), keeping the process alive only while a parse
 * is awaited (the first one comes before the server listens). A thread that
 * dies fails the parses waiting on it; the next parse starts a new one.
 */
import type { Stats } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** `.js` when built, `.ts` under tsx (tests), where the worker must register tsx's loader first. */
const EXT = path.extname(fileURLToPath(import.meta.url));

/** The module `relative` (without extension) next to `base` (an import.meta.url), as built or as source. */
export function moduleNear(base: string, relative: string): URL {
  return new URL(`${relative}${EXT}`, base);
}

/** A file's stat as the follower compares it (which file, its size and times), or the error a stat met. */
export function seenKey(stat: Stats | NodeJS.ErrnoException): string {
  if (stat instanceof Error) return `error:${stat.code ?? 'unknown'}`;
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

/** What the thread is asked and what it answers: defined here, so imports run one way (the thread imports this file). */
export type ParseRequest = { id: number; file: string };
export type ParseReply<T> = { id: number; seen: string } & ({ ok: true; value: T } | { ok: false; problems: string[] });

/** Where a parser is: a module and the name of its export, `(text) => {value, problems}`. */
export interface ParserRef {
  module: URL;
  name: string;
}

export class ParseWorker<T> {
  private thread: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, (reply: ParseReply<T>) => void>();

  constructor(private readonly parser: ParserRef) {}

  /** The file read and parsed in the thread: its value, or its problems as `file:line:column: message`. */
  parse(file: string): Promise<ParseReply<T>> {
    const thread = this.thread ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      thread.ref();
      thread.postMessage({ id, file } satisfies ParseRequest);
    });
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    await thread?.terminate();
  }

  private start(): Worker {
    const workerData = { module: this.parser.module.href, name: this.parser.name };
    const url = new URL(`./parse-thread${EXT}`, import.meta.url);
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
    const thread = EXT === '.ts' ? new Worker(boot, { eval: true, workerData }) : new Worker(url, { workerData });
    thread.unref();
    thread.on('message', (reply: ParseReply<T>) => {
      const resolve = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) thread.unref();
      resolve?.(reply);
    });
    const failed = (why: string): void => {
      if (this.thread === thread) this.thread = null;
      for (const [id, resolve] of this.waiting)
        resolve({ id, seen: 'unknown', ok: false, problems: [`the parsing thread ${why}`] });
      this.waiting.clear();
    };
    thread.once('error', (err) => failed(`failed (${err.message})`));
    thread.once('exit', (code) => failed(`exited (code ${code})`));
    this.thread = thread;
    return thread;
  }
}
