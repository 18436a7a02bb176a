/**
 * Structured JSON logs (pino: stable, one JSON object per line). The access log writes a line per
 * request, which at tens of thousands of requests a second is most of a read's own cost, so:
 *
 * - Lines are encoded straight into one 64 KiB Buffer, written out (pino's file writer, sonic-boom,
 *   synchronous, in buffer mode) when full, every 100 ms (a line is never held for long), after
 *   lines a reader waits for ("listening", "ready"), and on exit. Nothing a line leaves behind
 *   lives long: its string dies once encoded, and the batch is written from where it is and
 *   refilled. Anything that outlives two scavenges lands in the old generation, and with 100,000
 *   networks in the heap every major GC that brings on costs ~0.35 s of CPU on V8's helper
 *   threads, a tenth of a read row's throughput on two cores. Pending strings in an array did
 *   that, and so did a copy of each batch held by an asynchronous writer until its write was
 *   done: 64 KiB of ArrayBuffer each, counted against the old generation's limit once promoted,
 *   three or four major GCs in the first seconds of every read row at 100,000 networks.
 * - The access line is built by hand in pino's own format (level, time, the logger's bindings,
 *   the fields, msg) instead of through pino's serialiser: 0.4 us instead of ~2 us.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export const FLUSH_EVERY_MS = 100;
/**
 * A batch is one blocking write: ~18 us for 64 KiB into a file here, ~70 us into a pipe whose reader
 * drains it (37 us of CPU), about 300 access lines: 0.06-0.25 us a line. pino's own default is a
 * blocking write per line; sonic-boom retries a write the other end is not ready for (EAGAIN).
 */
const BATCH_BYTES = 64 * 1024;
/** UTF-8 needs at most 3 bytes per UTF-16 code unit: a line of n units always fits in 3n bytes. */
const MAX_BYTES_PER_UNIT = 3;

/**
 * sonic-boom, synchronous, in buffer mode (its type declarations know only strings): a write has
 * put every byte out when it returns, so the batch it was given can be refilled at once.
 */
export interface BufferWriter {
  write(chunk: Buffer): unknown;
}

/** A pino destination that batches lines, encoded, before they reach the (blocking) file writer. */
export class LineBatcher implements DestinationStream {
  /** Allocated once and refilled (see the top of this file for why). */
  private readonly batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
  private used = 0;

  constructor(private readonly out: BufferWriter) {}

  write(line: string): void {
    const worst = line.length * MAX_BYTES_PER_UNIT;
    if (this.used + worst > BATCH_BYTES) {
      this.flush();
      if (worst > BATCH_BYTES) {
        this.out.write(Buffer.from(line, 'utf8'));
        return;
      }
    }
    this.used += this.batch.write(line, this.used, 'utf8');
  }

  /**
   * Writes out everything gathered. The writer is done with the bytes when it returns: it gets a
   * view of the batch, never a copy (and, being synchronous, has nothing of its own to flush).
   */
  flush(): void {
    if (this.used === 0) return;
    this.out.write(this.batch.subarray(0, this.used));
    this.used = 0;
  }
}

/** A logger writing to `dest`: standard output, or a file (tests). */
export function createLogger(level: string, dest: number | string = 1): Logger {
  const file = pino.destination({ dest, sync: true, maxWrite: BATCH_BYTES, contentMode: 'buffer' });
  const batcher = new LineBatcher(file as unknown as BufferWriter);
  // `time` is epoch milliseconds (pino's default): an ISO string per line costs more than the rest of the line.
  const logger = pino({ level, base: { service: 'netcfg' } }, batcher);
  // pino's own flush() calls the destination's flush(): the batch is written out.
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
