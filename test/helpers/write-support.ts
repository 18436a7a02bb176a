/**
 * Shared pieces for the PATCH (write side) tests: a store + app on a temp folder, an disk steps that
 * can be told to fail, what a write may leave behind, and an ETag computed independently of src/.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type Koa from 'koa';
import type { Response } from 'supertest';
import type { AppOptions } from '../../src/http/app.js';
import { realDisk, type DiskSteps } from '../../src/store/write/disk-steps.js';
import type { NetworkStore, StoreOptions } from '../../src/store/network-store.js';
import { standardFiles } from './fixtures.js';
import { openReadApp } from './read-http.js';

export interface WriteRig {
  root: string;
  store: NetworkStore;
  app: Koa;
  /** Absolute path of a file in the config folder. */
  file(rel: string): string;
  close(): Promise<void>;
}

/** A started store over a fresh temp folder and a Koa app over it. */
export async function writeRig(
  files: Record<string, string> = standardFiles(),
  storeOptions: Partial<StoreOptions> = {},
  appOptions: AppOptions = {},
): Promise<WriteRig> {
  const { root, store, app, close } = await openReadApp(files, appOptions, storeOptions);
  return { root, store, app, file: (rel) => path.join(root, rel), close };
}

/** The strong ETag of some bytes, computed here rather than with src/'s etagOf. */
export function sha256Etag(bytes: Buffer | string): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}

/** What a file looks like on disk: its bytes and the identity a rewrite would change. */
export function fileState(file: string): { bytes: Buffer; mtimeMs: number; ino: number; mode: number } {
  const st = statSync(file);
  return { bytes: readFileSync(file), mtimeMs: st.mtimeMs, ino: st.ino, mode: st.mode & 0o777 };
}

/**
 * Debris a write may leave: temp files (dot files ending .tmp) anywhere in the folder (`.tmp/`
 * or beside a file), and lock folders in `.locks/`. The `.tmp/` and `.locks/` folders themselves
 * may stay; what is inside them may not.
 */
export function leftovers(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isFile() && entry.name.startsWith('.') && entry.name.endsWith('.tmp')) found.push(relPath);
      if (relPath === '.locks') continue;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), relPath);
    }
  };
  walk(root, '');
  const locks = path.join(root, '.locks');
  if (existsSync(locks)) for (const name of readdirSync(locks)) found.push(`.locks/${name}`);
  return found;
}

/** leftovers() once every write of the rig's store has let its lock go (a lock is released just after its write). */
export async function leftoversOf(rig: WriteRig): Promise<string[]> {
  await rig.store.writesSettled();
  return leftovers(rig.root);
}

/**
 * Resolves once `<root>/.locks/` holds no lock folder: a server lets a lock go just after its
 * answer, so a test in another process awaits that (each change of the folder is looked at,
 * up to a deadline) before it looks for debris.
 */
export function locksReleased(root: string, deadlineMs = 5000): Promise<void> {
  const locks = path.join(root, '.locks');
  const held = (): boolean => existsSync(locks) && readdirSync(locks).length > 0;
  if (!held()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (err?: Error): void => {
      clearTimeout(timer);
      watcher.close();
      if (err) reject(err);
      else resolve();
    };
    const watcher = watch(locks, () => {
      if (!held()) done();
    });
    const timer = setTimeout(
      () => done(new Error(`.locks/ still held ${readdirSync(locks).join(', ')} after ${deadlineMs} ms`)),
      deadlineMs,
    );
    if (!held()) done(); // released between the first look and the watch
  });
}

/** An Error as Node's fs raises it. */
export function errnoError(code: string, syscall: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${code}: injected failure, ${syscall}`);
  err.code = code;
  err.syscall = syscall;
  return err;
}

export type FaultyOp = 'writeNewDurable' | 'rename' | 'fsyncDir';

export interface Fault {
  code: string;
  /** Fail only after the real operation ran (an fsync that fails after the data was written). */
  afterRealOp?: boolean;
}

/** realDisk with switchable failures: the disk saying no, through the store's disk steps (StoreOptions.fs). */
export class FaultyFs implements DiskSteps {
  private faults = new Map<FaultyOp, Fault>();
  readonly calls: Record<FaultyOp, number> = { writeNewDurable: 0, rename: 0, fsyncDir: 0 };

  fail(op: FaultyOp, fault: Fault): void {
    this.faults.set(op, fault);
  }

  heal(): void {
    this.faults.clear();
  }

  readFile = (file: string) => realDisk.readFile(file);
  stat = (file: string) => realDisk.stat(file);
  unlink = (file: string) => realDisk.unlink(file);
  mkdir = (dir: string) => realDisk.mkdir(dir);
  writeNewDurable = (file: string, data: string, mode: number) =>
    this.run('writeNewDurable', () => realDisk.writeNewDurable(file, data, mode));
  renameIfUnchanged = (from: string, to: string, expected: Uint8Array, gitLockFile: string | null) =>
    this.run('rename', () => realDisk.renameIfUnchanged(from, to, expected, gitLockFile));
  fsyncDir = (dir: string) => this.run('fsyncDir', () => realDisk.fsyncDir(dir));

  private async run<T>(op: FaultyOp, real: () => Promise<T>): Promise<T> {
    this.calls[op]++;
    const fault = this.faults.get(op);
    if (!fault) return real();
    if (fault.afterRealOp) await real();
    throw errnoError(fault.code, op);
  }
}

/** Checks the error envelope of a response and returns its details. */
export function expectErrorEnvelope(
  res: Response,
  status: number,
  code: string,
): Array<{ pointer: string; message: string }> {
  expect(res.status, `${code}: ${res.text}`).to.equal(status);
  expect(res.headers['content-type']).to.match(/^application\/json/);
  const body = res.body as Record<string, unknown>;
  expect(body.success).to.equal(false);
  expect(body.data).to.equal(null);
  expect(body.code).to.equal(code);
  expect(body.error).to.be.a('string').and.not.equal('');
  return (body.details as Array<{ pointer: string; message: string }> | undefined) ?? [];
}

/** The app on a real loopback port, for requests supertest cannot shape (no Content-Type, many in parallel). */
export async function listenApp(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
