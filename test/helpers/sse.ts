/**
 * A minimal Server-Sent Events client over node:http, for tests: it collects events as they
 * arrive and lets a test await the n-th one with a deadline.
 */
import http from 'node:http';

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export interface SseClient {
  status: number;
  events: SseEvent[];
  comments: string[];
  /** Resolves once `count` events have arrived; rejects after `deadlineMs`. */
  waitFor(count: number, deadlineMs?: number): Promise<SseEvent[]>;
  close(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const waiters: Array<() => void> = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: 'message', data: '' };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('event: ')) {
              event.event = line.slice(7);
              isEvent = true;
            } else if (line.startsWith('data: ')) event.data = line.slice(6);
          }
          if (isEvent) events.push(event);
        }
        for (const wake of waiters.splice(0)) wake();
      });
      resolve({
        status: res.statusCode ?? 0,
        events,
        comments,
        waitFor(count, deadlineMs = 5000) {
          const deadline = Date.now() + deadlineMs;
          return new Promise((done, fail) => {
            const check = (): void => {
              if (events.length >= count) return done(events.slice(0, count));
              if (Date.now() > deadline)
                return fail(new Error(`only ${events.length} of ${count} events within ${deadlineMs} ms`));
              waiters.push(check);
              setTimeout(check, Math.max(0, deadline - Date.now()) + 1).unref();
            };
            check();
          });
        },
        close() {
          req.destroy();
        },
      });
    });
    req.on('error', reject);
  });
}
