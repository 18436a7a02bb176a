/**
 * Structured JSON logs: pino, one JSON object per line, written synchronously to standard output
 * (or a file, for tests), so a line is out before the next statement runs and nothing is lost
 * when the process exits. `time` is epoch milliseconds, pino's default.
 */
import { pino, type Logger } from 'pino';

/** A logger writing to `dest`: standard output, or a file (tests). */
export function createLogger(level: string, dest: number | string = 1): Logger {
  return pino({ level, base: { service: 'netcfg' } }, pino.destination({ dest, sync: true }));
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

export interface AccessFields {
  reqId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  /** Who asked (`token:relayer-eu`), once the request's token is known; absent on open routes and refused tokens. */
  actor?: string | undefined;
}

/** One access-log line per request. */
export function logRequest(logger: Logger, f: AccessFields): void {
  logger.info(
    {
      req_id: f.reqId,
      method: f.method,
      path: f.path,
      status: f.status,
      ms: f.ms,
      ...(f.actor === undefined ? {} : { actor: f.actor }),
    },
    'request',
  );
}
