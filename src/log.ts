/**
 * Structured JSON logs (pino: fast, stable, one JSON object per line). The access log writes a
 * line per request, so lines are gathered in a 4 KiB buffer and written together, off the main
 * thread; the buffer is flushed every 100 ms (so a line is never held for long), after lines a
 * reader waits for ("listening", "ready"), and on exit.
 */
import { pino, type Logger } from 'pino';

export const FLUSH_EVERY_MS = 100;

export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const logger = pino(
    // `time` is epoch milliseconds (pino's default): an ISO string per line costs more than the rest of the line.
    { level, base: { service: 'netcfg' } },
    destination,
  );
  setInterval(() => destination.flush(), FLUSH_EVERY_MS).unref();
  return logger;
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
