/**
 * A loopback HTTP proxy in front of a stand-in relayer that can hold one chosen call in flight while
 * every other call goes through: the stand-in's own gates hold every call alike, so two PATCHes held
 * there land in the order they were sent, and a late one could never overtake.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldCallProxy {
  url: string;
  /** Holds the next call of `method` before it reaches the relayer; `arrived` resolves once it is held, `release` sends it on. */
  holdNext(method: string): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
}

export async function startHeldCallProxy(target: string): Promise<HeldCallProxy> {
  let hold: { method: string; arrive: () => void; gate: Promise<void> } | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = (): void => {
        const out = http.request(
          `${target}${req.url ?? '/'}`,
          { method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        out.on('error', () => res.destroy());
        out.end(Buffer.concat(chunks));
      };
      if (hold && hold.method === req.method) {
        const { arrive, gate } = hold;
        hold = null;
        arrive();
        return void gate.then(forward);
      }
      forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    holdNext(method) {
      let release = (): void => undefined;
      let arrive = (): void => undefined;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      hold = { method, arrive, gate: new Promise<void>((resolve) => (release = resolve)) };
      return { arrived, release };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
