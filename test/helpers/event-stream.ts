/**
 * For tests of the change stream's flow: a raw socket client that can stop reading (pause) and
 * counts what arrives without keeping it, and a live prober's view that the test drives.
 */
import net from 'node:net';
import type { RpcHealthEvent, RpcHealthView } from '../../src/http/routes/rpc-health.js';

/** What the app is given for the live prober; `emit` is one URL's status change. */
export class DrivenView implements RpcHealthView {
  readonly listeners = new Set<(change: RpcHealthEvent) => void>();
  private readonly added: Array<() => void> = [];

  of(): null {
    return null;
  }

  summary(): { counts: Record<string, number>; last_round_at: string | null } {
    return { counts: {}, last_round_at: null };
  }

  statuses(): Array<{ id: string; statuses: string[] }> {
    return [];
  }

  onChange(listener: (change: RpcHealthEvent) => void): () => void {
    this.listeners.add(listener);
    for (const wake of this.added.splice(0)) wake();
    return () => this.listeners.delete(listener);
  }

  /** Resolves once someone listens (a stream has subscribed); rejects after `deadlineMs`. */
  listened(deadlineMs = 5000): Promise<void> {
    if (this.listeners.size > 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nobody listened within ${deadlineMs} ms`)), deadlineMs);
      this.added.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  emit(change: RpcHealthEvent): void {
    for (const listener of this.listeners) listener(change);
  }
}

/**
 * The raw bytes of one request's answer, counted by line as they arrive (each SSE frame is one
 * chunk of the chunked response, so a chunk's size line never falls inside a frame's line).
 */
export class StreamReader {
  bytes = 0;
  closed = false;
  opened = false;
  heartbeats = 0;
  lastId: string | undefined;
  lastData = '';
  private pendingEvent: string | null = null;
  private readonly events = new Map<string, number>();
  private partial = '';
  private readonly waiters = new Set<() => void>();

  private constructor(readonly socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => {
      this.bytes += text.length;
      const lines = (this.partial + text).split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) this.line(line);
      this.wake();
    });
    socket.on('error', () => undefined); // a reset is one way of being dropped
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  /** Connects to `port` on loopback and writes `request` as given. */
  static open(port: number, request: string): Promise<StreamReader> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.off('error', reject);
        socket.write(request);
        resolve(new StreamReader(socket));
      });
      socket.once('error', reject);
    });
  }

  count(event: string): number {
    return this.events.get(event) ?? 0;
  }

  /** Resolves once `condition` holds, checked on every arrival and on close; rejects after `deadlineMs`. */
  until(condition: (reader: StreamReader) => boolean, what: string, deadlineMs = 5000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(`${what}: not within ${deadlineMs} ms (${this.bytes} bytes, ${this.closed ? 'closed' : 'open'})`),
        );
      }, deadlineMs);
      const check = (): void => {
        if (!condition(this)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }

  private line(line: string): void {
    // An event counts once its data has arrived too: the two lines may come in different chunks.
    if (line.startsWith('event: ')) this.pendingEvent = line.slice(7);
    else if (line.startsWith('id: ')) this.lastId = line.slice(4);
    else if (line.startsWith('data: ')) {
      this.lastData = line.slice(6);
      if (this.pendingEvent !== null) this.events.set(this.pendingEvent, this.count(this.pendingEvent) + 1);
      this.pendingEvent = null;
    } else if (line.startsWith(': heartbeat')) this.heartbeats++;
    else if (line.startsWith(': netcfg change stream at revision')) this.opened = true;
  }

  private wake(): void {
    for (const check of [...this.waiters]) check();
  }
}
