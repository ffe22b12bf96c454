import type pg from 'pg';
import { logError } from '../../lib/log-error.js';

/** How long a new connection may take before the request that wanted it fails (and answers 503). */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Keeps a lost PostgreSQL from ending the process. pg reports a connection that drops while idle
 * in the pool as the pool's 'error' event, and one that drops while checked out between two
 * statements (inside a transaction) as the client's own 'error' event; either, unheard, is an
 * uncaught exception. Both are heard here: the client is discarded by the pool, the request that
 * held it fails with the next statement, and the pool opens new connections once the server is back.
 *
 * A lost server drops every connection at once: the loss is logged once, and again only after a
 * connection has been opened since.
 */
export function surviveLostConnections(pool: pg.Pool, what: string): pg.Pool {
  let reported = false;
  const lost = (err: Error) => {
    if (reported) return;
    reported = true;
    logError(`${what}: a connection to PostgreSQL was lost; requests that need it fail until it is back`, err);
  };
  pool.on('error', lost);
  pool.on('connect', (client) => {
    reported = false;
    client.on('error', lost);
  });
  return pool;
}
