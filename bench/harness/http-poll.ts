/**
 * Polling a server the way a client that waits for a change would: GETs, one at a time, on one
 * kept-alive connection, so the measured delay is the server's and not a new TCP handshake's.
 */
import http from 'node:http';

export class Poller {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly base: string) {}

  get(path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.get(this.base + path, { agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  }

  /** GETs `path` until `done(body)` holds; returns the ms it took, or null at the deadline. */
  async until(path: string, done: (body: string) => boolean, deadlineMs: number, pauseMs = 0): Promise<number | null> {
    const started = performance.now();
    while (performance.now() - started < deadlineMs) {
      const res = await this.get(path);
      if (res.status === 200 && done(res.body)) return performance.now() - started;
      if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    }
    return null;
  }

  close(): void {
    this.agent.destroy();
  }
}

export function percentileOf(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}
