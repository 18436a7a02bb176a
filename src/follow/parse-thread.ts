/**
 * A worker thread that reads a followed file and parses it with the parser its owner named, so a
 * file of tens of thousands of entries never holds the main thread (health answers meanwhile).
 *
 * In: workerData {module, name} (the parser: a function of the text giving {value, problems});
 *     messages {id, file}.
 * Out: {id, ok: true, value} or {id, ok: false, problems: ['file:line:column: message', ...]}.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { Located } from '../settings-list.js';

export type TextParser<T> = (text: string) => { value: T; problems: Located[] };
export type ParseRequest = { id: number; file: string };
export type ParseReply<T> = { id: number; ok: true; value: T } | { id: number; ok: false; problems: string[] };

const port = parentPort!;
const { module, name } = workerData as { module: string; name: string };
const parser = import(module).then((loaded: Record<string, unknown>) => loaded[name] as TextParser<unknown>);

function outcome(parse: TextParser<unknown>, id: number, file: string): ParseReply<unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { id, ok: false, problems: [`${file}:1:1: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`] };
  }
  const { value, problems } = parse(text);
  if (problems.length === 0) return { id, ok: true, value };
  return { id, ok: false, problems: problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`) };
}

port.on('message', ({ id, file }: ParseRequest) => {
  void parser.then(
    (parse) => port.postMessage(outcome(parse, id, file)),
    (err: unknown) => port.postMessage({ id, ok: false, problems: [`${file}:1:1: the parser could not be loaded (${String(err)})`] }),
  );
});
