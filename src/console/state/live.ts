/**
 * The change stream (GET /api/v1/networks/events) for the console. EventSource cannot send the
 * bearer header, so the stream is read with fetch and parsed by eventsource-parser; after a drop
 * it reconnects with Last-Event-ID, as EventSource would, so no change is missed.
 */
import { createParser } from 'eventsource-parser';

export interface LiveEvent {
  /** added | modified | deleted | reset | rpc_health */
  kind: string;
  /** rpc_health: `index` is the URL's place in the network's rpc_urls, `url` it redacted. */
  data: { id?: string; etag?: string; index?: number; url?: string; status?: string };
}

/** How a page listens to the one stream the app keeps open; returns the way to stop listening. */
export type Subscribe = (listener: (event: LiveEvent) => void) => () => void;

export interface LiveStream {
  close(): void;
}

export function openLive(
  headers: Record<string, string>,
  onEvent: (event: LiveEvent) => void,
  onState: (connected: boolean) => void,
  onUnauthorized: () => void,
): LiveStream {
  const stop = new AbortController();
  let lastId: string | undefined;
  const parser = createParser({
    onEvent(message) {
      if (message.id) lastId = message.id;
      try {
        onEvent({ kind: message.event ?? 'message', data: JSON.parse(message.data) as LiveEvent['data'] });
      } catch {
        // not a JSON event: nothing the console shows
      }
    },
  });
  void (async () => {
    while (!stop.signal.aborted) {
      try {
        const res = await fetch('/api/v1/networks/events', {
          headers: { ...headers, ...(lastId ? { 'last-event-id': lastId } : {}) },
          signal: stop.signal,
        });
        if (res.status === 401) return onUnauthorized(); // retrying a refused key would only repeat the 401
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        onState(true);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) parser.feed(chunk.value);
      } catch {
        // dropped or refused: retried below
      }
      parser.reset();
      if (stop.signal.aborted) return;
      onState(false);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return { close: () => stop.abort() };
}
