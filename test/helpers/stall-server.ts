/**
 * A TCP server on loopback that accepts every connection and never answers: an overloaded git
 * host or a stuck proxy. It counts the connections open now and can wait until all have closed
 * (the client gave up, or was killed).
 */
import net from 'node:net';

export interface StallServer {
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Connections still open. */
  open(): number;
  /** Resolves once a connection was accepted; rejects after `deadlineMs`. */
  firstConnection(deadlineMs?: number): Promise<void>;
  /** Resolves once no connection is open; rejects after `deadlineMs`. */
  allClosed(deadlineMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startStallServer(): Promise<StallServer> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const changed = new Set<() => void>();
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.resume(); // read and drop what the client sends, so its close is seen
    socket.once('close', () => {
      sockets.delete(socket);
      for (const wake of changed) wake();
    });
    for (const wake of changed) wake();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const when = (condition: () => boolean, what: string, deadlineMs: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!condition()) return;
        clearTimeout(timer);
        changed.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        changed.delete(check);
        reject(new Error(`${what} not within ${deadlineMs} ms (accepted ${accepted}, open ${sockets.size})`));
      }, deadlineMs);
      changed.add(check);
      check();
    });
  return {
    port: (server.address() as net.AddressInfo).port,
    accepted: () => accepted,
    open: () => sockets.size,
    firstConnection: (deadlineMs = 10_000) => when(() => accepted > 0, 'a connection', deadlineMs),
    allClosed: (deadlineMs = 10_000) => when(() => sockets.size === 0, 'every connection closed', deadlineMs),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
