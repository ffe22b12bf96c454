/**
 * A TCP proxy on loopback that a test can cut and restore, to lose a dependency (PostgreSQL,
 * Redis) without touching the machine's own server: `cut()` drops every open connection and stops
 * accepting (a client then gets ECONNREFUSED, as from a server that went down); `restore()`
 * accepts again on the same port.
 */
import { type Server, type Socket, createConnection, createServer } from 'node:net';

export interface CuttableProxy {
  /** The loopback port clients connect to; the same after a cut and restore. */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    // A peer that goes away is what this proxy is for; its error only ends the pair.
    socket.on('error', () => socket.destroy());
  };
  const pair = (client: Socket) => {
    const server = createConnection(target);
    track(client);
    track(server);
    client.pipe(server).on('close', () => client.destroy());
    server.pipe(client);
    client.once('close', () => server.destroy());
    server.once('close', () => client.destroy());
  };

  let listener: Server | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = createServer(pair);
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        listener = server;
        resolve((server.address() as { port: number }).port);
      });
    });
  const stop = async () => {
    const server = listener;
    listener = undefined;
    for (const socket of open) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  const port = await listen(0);
  return {
    port,
    through(url) {
      const changed = new URL(url);
      changed.hostname = '127.0.0.1';
      changed.port = String(port);
      return changed.toString();
    },
    cut: stop,
    restore: async () => {
      if (!listener) await listen(port);
    },
    close: stop,
  };
}
