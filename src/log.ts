/**
 * Structured JSON logs (pino: stable, one JSON object per line). The access log writes a line per
 * request, which at tens of thousands of requests a second is most of a read's own cost, so:
 *
 * - Lines are gathered in an array and handed to pino's file writer (sonic-boom) 64 KiB at a
 *   time, flushed every 100 ms (a line is never held for long), after lines a reader waits for
 *   ("listening", "ready"), and on exit. Handing sonic-boom each line measured ~2 us a line: it
 *   re-measures the bytes of its whole pending buffer on every write.
 * - The access line is built by hand in pino's own format (level, time, the logger's bindings,
 *   the fields, msg) instead of through pino's serialiser: 0.4 us instead of ~2 us.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export const FLUSH_EVERY_MS = 100;
/**
 * A batch is one asynchronous write, and a write through libuv's thread pool costs ~100 us of CPU
 * on these machines however small it is: 64 KiB (about 300 access lines) makes that ~0.3 us a line.
 */
const BATCH_BYTES = 64 * 1024;

/** A pino destination that batches lines before they reach the (asynchronous) file writer. */
class LineBatcher implements DestinationStream {
  private lines: string[] = [];
  private bytes = 0;

  constructor(private readonly out: { write(chunk: string): unknown; flush(): void }) {}

  write(line: string): void {
    this.lines.push(line);
    this.bytes += line.length;
    if (this.bytes >= BATCH_BYTES) this.drain();
  }

  /** Hands everything gathered to the writer, and asks it to write now. */
  flush(): void {
    this.drain();
    this.out.flush();
  }

  private drain(): void {
    if (this.lines.length === 0) return;
    this.out.write(this.lines.join(''));
    this.lines = [];
    this.bytes = 0;
  }
}

export function createLogger(level: string): Logger {
  const file = pino.destination({ dest: 1, sync: false, maxWrite: BATCH_BYTES });
  const batcher = new LineBatcher(file);
  // `time` is epoch milliseconds (pino's default): an ISO string per line costs more than the rest of the line.
  const logger = pino({ level, base: { service: 'netcfg' } }, batcher);
  // pino's own flush() calls the destination's flush(): the batch, then the file writer.
  setInterval(() => batcher.flush(), FLUSH_EVERY_MS).unref();
  return logger;
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

export interface AccessFields {
  /** Matches /^[A-Za-z0-9._:-]{1,128}$/ or is a UUID: written without escaping. */
  reqId: string;
  /** An HTTP token (Node refuses any other method): written without escaping. */
  method: string;
  path: string;
  status: number;
  ms: number;
}

/** One access-log line, the same JSON a `logger.info({req_id, method, path, status, ms}, 'request')` writes. */
export function logRequest(logger: Logger, f: AccessFields): void {
  if (!logger.isLevelEnabled('info')) return;
  const own = logger as unknown as Record<symbol, unknown>;
  const stream = own[pino.symbols.streamSym];
  if (!(stream instanceof LineBatcher)) {
    logger.info({ req_id: f.reqId, method: f.method, path: f.path, status: f.status, ms: f.ms }, 'request');
    return;
  }
  const bindings = (own[pino.symbols.chindingsSym] as string | undefined) ?? '';
  stream.write(
    `{"level":30,"time":${Date.now()}${bindings},"req_id":"${f.reqId}","method":"${f.method}","path":${JSON.stringify(f.path)},"status":${f.status},"ms":${f.ms},"msg":"request"}\n`,
  );
}
