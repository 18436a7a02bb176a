/**
 * A disk thread: runs the steps of a write that may block (take the lock folder, create + write +
 * fsync a temp file, wait for the write's go-ahead, check + rename + fsync its folder, let the lock
 * go: one request) synchronously, one request at a time, off the main thread.
 * See threaded-fs.ts for why.
 *
 * Also takes and releases a cross-process lock held throughout a PATCH (file-lock.ts says when)
 * while other writes are in flight, and removes the folder of such a lock the main thread took.
 *
 * What a write's answer does not wait for runs after the answer is sent, before the next message
 * is taken: its lock folder's rmdir, and the close of the file it replaced, which frees that
 * file's inode (fs-seam.ts).
 *
 * In: {seq, op, args}. Out: {seq, result, removing?} or {seq, error: {message, code, syscall,
 * path}}, and {compromised: seq, message} when the lock taken by request seq was lost. `removing`
 * is the lock folder this thread removes just after that answer (threaded-fs.ts routes the
 * network's next write here, behind it).
 */
import { closeSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { keepTickShape } from '../tick-shape.js';
import { lockHere, type ReleaseLock } from './cross-process-lock.js';
import { freesOnClose } from './frees-on-close.js';
import { awaitGoAheadBlocking } from './go-ahead.js';
import { fsyncDirSync, removeLockFolder, renameIfUnchangedSync, writeAndReplaceBySteps, writeNewDurableSync, type FsSeam, type WriteSteps } from './fs-seam.js';

export type DiskOp =
  | { op: 'write-and-replace'; args: Parameters<FsSeam['writeAndReplace']> }
  | { op: 'fsync-dir'; args: [dir: string] }
  | { op: 'lock'; args: [target: string, staleMs: number] }
  | { op: 'unlock'; args: [lockSeq: number] }
  | { op: 'rmdir'; args: [dir: string] }
  /** Nothing: answered once everything sent before, and what it left for after its answer, is done. */
  | { op: 'flush'; args: [] };

export interface DiskReply {
  seq: number;
  result?: unknown;
  removing?: string;
  error?: { message: string; code?: string; syscall?: string; path?: string };
}

/** A reply, or word that the lock taken by request `compromised` was lost. */
export type DiskMessage = DiskReply | { compromised: number; message: string };

/** Locks held by this thread (proper-lockfile's timers keep them fresh here), by the seq that took them. */
const held = new Map<number, ReleaseLock>();

/** The lock folder of the write being answered, removed just after its answer (fs-seam.ts). */
let removing: string | undefined;
/** The file that write replaced, still open: closed just after the answer (renameIfUnchangedSync). */
let replaced: number | undefined;
const keepReplaced = (fd: number): void => {
  replaced = fd;
};

/**
 * The steps of writeAndReplace as blocking calls (this thread is there to block), sequenced by
 * fs-seam.ts's writeAndReplaceBySteps: one definition of the order, here and in the tests' seams.
 */
const BLOCKING_STEPS: WriteSteps = {
  writeNewDurable: async (...args) => writeNewDurableSync(...args),
  renameIfUnchanged: async (from, to, expected, gitLockFile) =>
    renameIfUnchangedSync(from, to, expected, gitLockFile, freesOnClose(path.dirname(to)) ? keepReplaced : closeSync),
  fsyncDir: async (dir) => fsyncDirSync(dir),
  goAhead: async (cell) => awaitGoAheadBlocking(cell),
  removeAfterAnswer: (lockFolder) => {
    removing = lockFolder;
  },
};

async function run(request: DiskOp & { seq: number }): Promise<unknown> {
  switch (request.op) {
    case 'write-and-replace': {
      const replaced = await writeAndReplaceBySteps(BLOCKING_STEPS, ...request.args);
      // An Error crosses to the main thread without its code: send the fields as data.
      if (replaced.syncError) replaced.syncError = errorData(replaced.syncError) as NodeJS.ErrnoException;
      return replaced;
    }
    case 'fsync-dir':
      return fsyncDirSync(...request.args);
    case 'lock': {
      const { seq } = request;
      const release = await lockHere(...request.args, (err) => {
        held.delete(seq);
        port.postMessage({ compromised: seq, message: err.message } satisfies DiskMessage);
      });
      held.set(seq, release);
      return undefined;
    }
    case 'rmdir':
      return rmdirSync(...request.args);
    case 'flush':
      return undefined;
    case 'unlock': {
      const release = held.get(request.args[0]);
      held.delete(request.args[0]);
      return release?.();
    }
  }
}

function errorData(err: unknown): NonNullable<DiskReply['error']> {
  const e = err as NodeJS.ErrnoException;
  return { message: e.message, code: e.code, syscall: e.syscall, path: e.path };
}

// A long-lived thread, GCed on its own: see tick-shape.ts.
void keepTickShape();
const port = parentPort!;
// Each step resolves at once (a blocking call), so a request is done before the next message is
// taken: still one request at a time.
port.on('message', async (message: DiskOp & { seq: number }) => {
  let reply: DiskReply;
  try {
    reply = { seq: message.seq, result: await run(message) };
    if (removing !== undefined) reply.removing = removing;
  } catch (err) {
    reply = { seq: message.seq, error: errorData(err) };
  }
  port.postMessage(reply);
  if (removing !== undefined) removeLockFolder(removing);
  if (replaced !== undefined) closeSync(replaced);
  removing = undefined;
  replaced = undefined;
});
