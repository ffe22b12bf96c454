import { neon, neonConfig } from '@neondatabase/serverless';
import { drizzle } from 'drizzle-orm/neon-http';
import type { Database, Db } from '../../data/database.js';
import { writeAsOne } from '../../data/write-as-one.js';

/** How long one statement (or one batch) may take before it fails and the request answers 503. */
export const STATEMENT_TIMEOUT_MS = 10_000;

/**
 * Neon over HTTP with drizzle's `neon-http` driver over `neon()` from @neondatabase/serverless:
 * every query is one stateless HTTPS request, which suits Workers. Atomic changes go as one batch,
 * which Neon runs in a single transaction in one round trip.
 *
 * Every request to Neon is aborted after STATEMENT_TIMEOUT_MS: the driver then reports it as a
 * connection error, which the service answers with 503 (src/data/errors.ts), never a hang.
 * `fetchEndpoint` aims the driver at a local stand-in during development; production leaves it
 * unset. Both are the driver's global settings, the same for every database an isolate opens.
 *
 * drizzle is given no schema: the service makes no relational queries (`db.query`), and working
 * out their configuration for every table would cost each isolate's first request.
 */
export function openNeonHttpDatabase(databaseUrl: string, options: { fetchEndpoint?: string; statementTimeoutMs?: number } = {}): Database {
  const timeoutMs = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  // Unset, the driver's own default: Neon's regional endpoint for the connection string's host.
  neonConfig.fetchEndpoint = options.fetchEndpoint as typeof neonConfig.fetchEndpoint;
  neonConfig.fetchFunction = (input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const client = neon(databaseUrl);
  const db = drizzle({ client }) as unknown as Db & { batch: (statements: readonly unknown[]) => Promise<unknown[]> };
  return {
    db,
    atomic: async (build) => {
      const statements = build(db);
      if (statements.length === 0) return [];
      return [...(await db.batch(statements))];
    },
    writeAsOne: (build) => writeAsOne(db, build),
    close: async () => {},
  };
}
