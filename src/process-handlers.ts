/**
 * What main adds to the process itself, once per process whatever serve() does: the stop signals
 * (SIGTERM, SIGINT), which run the shutdown, and the log line of a promise nobody handled.
 */
import type { Logger } from 'pino';

const stops: Array<(signal: string) => Promise<void>> = [];

/** The first SIGTERM or SIGINT runs each `stop`; the process-wide handlers are added once, even when serve() runs again. */
export function onStopSignal(stop: (signal: string) => Promise<void>): void {
  stops.push(stop);
  if (stops.length > 1) return;
  let stopping = false;
  const heard = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    for (const each of stops) void each(signal);
  };
  process.on('SIGTERM', heard);
  process.on('SIGINT', heard);
}

let unhandledLogged = false;

/** A promise nobody handles is a bug of ours: logged and counted, never the end of the process or of a request; the handler is added once per process. */
export function logUnhandledRejections(log: Logger): void {
  if (unhandledLogged) return;
  unhandledLogged = true;
  let unhandled = 0;
  process.on('unhandledRejection', (reason) => {
    unhandled++;
    log.error({ err: reason, unhandled_rejections: unhandled }, 'unhandled promise rejection');
  });
}
