import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { logError } from '../../src/lib/log-error.js';

/** A local stand-in for a hosted service: a fetch handler, and what must be released when done. */
export interface Standin {
  fetch: (request: Request) => Response | Promise<Response>;
  close(): Promise<void>;
}

export interface ServedStandin {
  /** Base URL, e.g. `http://127.0.0.1:43210` (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a stand-in on 127.0.0.1 (port 0 = any free port); `close()` stops the server, then the
 * stand-in. If the port cannot be had, the stand-in is closed and the promise rejects.
 */
export function serveStandin(standin: Standin, port = 0): Promise<ServedStandin> {
  return new Promise((resolve, reject) => {
    // Leaving Node's own Request/Response in place: the stand-ins share a process with real clients.
    const server = serve({ fetch: (request) => standin.fetch(request), hostname: '127.0.0.1', port, overrideGlobalObjects: false });
    // A port already taken: release what the stand-in holds (e.g. a PGlite) before failing.
    server.once('error', (error) => void standin.close().finally(() => reject(error)));
    server.once('listening', () => {
      // Past its start, a server error is logged, never thrown: it must not end the process serving the Worker.
      const { port: actual } = server.address() as AddressInfo;
      server.on('error', (error) => logError(`stand-in on port ${actual}`, error));
      resolve({
        url: `http://127.0.0.1:${actual}`,
        close: async () => {
          await new Promise<void>((done) => {
            server.close(() => done());
            // Clients keep connections alive; without this, close() would wait for them to time out.
            if ('closeAllConnections' in server) server.closeAllConnections();
          });
          await standin.close();
        },
      });
    });
  });
}
