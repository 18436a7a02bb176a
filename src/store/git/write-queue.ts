/**
 * GIT_SYNC's writes on their way to the remote: each is on disk already and waits, in order, for
 * the push that carries it. The queue also writes what `git fast-import` reads to make them one
 * commit each (that file alone, netcfg's author) in one process.
 */
import path from 'node:path';
import { NetcfgError } from '../../errors.js';
import type { PushOutcome } from '../write/write-strategy.js';

/** Where fast-import puts the commits of a push before the branch moves to them (once the remote has them). */
export const OUTGOING = 'refs/netcfg/outgoing';

/** `file` from the top of the clone at `top`, `/`-separated, as a commit's tree names it. */
export function pathInClone(top: string, file: string): string {
  const rel = path.relative(top, file);
  // The folder's checks keep every write inside the clone; a path that left it would become a tree entry with `..`.
  if (rel.startsWith('..') || path.isAbsolute(rel))
    throw new NetcfgError('FILE_INVALID', `${file} lies outside the clone ${top}; it is not pushed.`);
  return rel.split(path.sep).join('/');
}

/** A write on disk that is not in the remote yet. */
interface Queued {
  /** Its path from the top of the clone. */
  rel: string;
  executable: boolean;
  text: string;
  message: string;
  /** Its commit's author, `Name <email>` (netcfg commits it). */
  author: string;
  /** When it was queued (performance.now()). */
  since: number;
  settle(outcome: PushOutcome | NetcfgError): void;
  /** Settled by `settle`: what its writer awaits. */
  pushed: Promise<PushOutcome>;
}

export class WriteQueue {
  private readonly items: Queued[] = [];

  get length(): number {
    return this.items.length;
  }

  /** Queues a write; the promise settles with the outcome of the push that carries it. */
  add(rel: string, mode: number, text: string, message: string, author: string): Promise<PushOutcome> {
    let settle: Queued['settle'] = () => undefined;
    const pushed = new Promise<PushOutcome>((resolve, reject) => {
      settle = (outcome) => (outcome instanceof NetcfgError ? reject(outcome) : resolve(outcome));
    });
    pushed.catch(() => undefined); // awaited by the writer once it let its turn go
    this.items.push({
      rel,
      executable: (mode & 0o111) !== 0,
      text,
      message,
      author,
      since: performance.now(),
      settle,
      pushed,
    });
    return pushed;
  }

  /** Settles with the last write queued so far (at once when none waits). */
  settledSoFar(): Promise<PushOutcome> {
    return this.items.at(-1)?.pushed ?? Promise.resolve('pushed');
  }

  /** Whether the newest queued write of `rel` puts `bytes` there; undefined when none waits. */
  holds(rel: string, bytes: Buffer): boolean | undefined {
    const text = this.items.findLast((item) => item.rel === rel)?.text;
    return text === undefined ? undefined : Buffer.from(text).equals(bytes);
  }

  /** How long the oldest queued write has waited (0 when none waits). */
  oldestAgeMs(): number {
    const first = this.items[0];
    return first ? performance.now() - first.since : 0;
  }

  /** The paths the queued writes touch. */
  paths(): Set<string> {
    return new Set(this.items.map((item) => item.rel));
  }

  /** Settles the first `count` writes (a push carried them). */
  settleFirst(count: number, outcome: PushOutcome): void {
    for (const item of this.items.splice(0, count)) item.settle(outcome);
  }

  /** Settles every write, each with what `outcomeOf` says for its place in the queue. */
  settleAll(outcomeOf: (index: number) => PushOutcome | NetcfgError): void {
    this.items.splice(0).forEach((item, i) => item.settle(outcomeOf(i)));
  }

  /** What fast-import reads to make the first `count` writes one commit each on OUTGOING, on top of `base`, committed by `committer`. */
  fastImportInput(count: number, base: string, committer: string): Buffer {
    const parts: Buffer[] = [];
    const add = (text: string): number => parts.push(Buffer.from(text));
    const data = (bytes: Buffer): void => {
      add(`data ${bytes.length}\n`);
      parts.push(bytes);
      add('\n');
    };
    this.items.slice(0, count).forEach((item, i) => {
      add(`commit ${OUTGOING}\nauthor ${item.author} now\ncommitter ${committer} now\n`);
      data(Buffer.from(item.message));
      if (i === 0) add(`from ${base}\n`);
      // The path runs to the end of the line; ids and the folder layout keep line breaks out of it.
      add(`M ${item.executable ? '100755' : '100644'} inline ${item.rel}\n`);
      data(Buffer.from(item.text));
    });
    return Buffer.concat(parts);
  }
}
