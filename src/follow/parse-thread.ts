/**
 * A worker thread that reads a followed file and parses it with the parser its owner named, so a
 * file of tens of thousands of entries never holds the main thread (health answers meanwhile).
 *
 * In: workerData {module, name} (the parser: a function of the text giving {value, problems});
 *     messages {id, file}.
 * Out: {id, seen, ok: true, value} or {id, seen, ok: false, problems: ['file:line:column: message', ...]};
 *      `seen`: the stat of what was read (parse-worker.ts' seenKey), to which the follower compares the file's.
 */
import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { Located } from '../settings-list.js';
import { seenKey, type ParseReply, type ParseRequest } from './parse-worker.js';

export type TextParser<T> = (text: string) => { value: T; problems: Located[] };

const port = parentPort!;
const { module, name } = workerData as { module: string; name: string };
const parser = import(module).then((loaded: Record<string, unknown>) => loaded[name] as TextParser<unknown>);

/** The stat as the follower's own look would see it, for a file that cannot be opened. */
function statOf(file: string): string {
  try {
    return seenKey(statSync(file));
  } catch (err) {
    return seenKey(err as NodeJS.ErrnoException);
  }
}

function outcome(parse: TextParser<unknown>, id: number, file: string): ParseReply<unknown> {
  let text: string;
  let seen: string;
  try {
    // The stat of the very file read (a link swapped meanwhile changes what the next look sees).
    const fd = openSync(file, 'r');
    try {
      seen = seenKey(fstatSync(fd));
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return {
      id,
      seen: statOf(file),
      ok: false,
      problems: [`${file}:1:1: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`],
    };
  }
  const { value, problems } = parse(text);
  if (problems.length === 0) return { id, seen, ok: true, value };
  return { id, seen, ok: false, problems: problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`) };
}

port.on('message', ({ id, file }: ParseRequest) => {
  void parser.then(
    (parse) => port.postMessage(outcome(parse, id, file)),
    (err: unknown) =>
      port.postMessage({
        id,
        seen: statOf(file),
        ok: false,
        problems: [`${file}:1:1: the parser could not be loaded (${String(err)})`],
      }),
  );
});
