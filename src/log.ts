/**
 * Structured JSON logs (pino: fast, stable, one JSON object per line). The access log writes a
 * line per request, so the destination is asynchronous and flushed on exit.
 */
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino(
    { level, base: { service: 'netcfg' }, timestamp: pino.stdTimeFunctions.isoTime, redact: ['req.headers.authorization'] },
    // Asynchronous, but written as soon as possible: a probe or a test waits for lines like "listening".
    pino.destination({ dest: 1, sync: false }),
  );
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
