import { NeonHttpSession } from 'drizzle-orm/neon-http/session';
import { PgDatabase, PgDialect } from 'drizzle-orm/pg-core';
import type { Database, Db } from '../../data/database.js';
import { writeAsOne } from '../../data/write-as-one.js';
import { NeonHttpClient } from './neon-http-client.js';

/**
 * Neon over HTTP: every query is one stateless HTTPS request, which suits Workers. Atomic changes
 * go as one batch, which Neon runs in a single transaction in one round trip. `fetchEndpoint`
 * aims the client at a local stand-in during development; production leaves it unset.
 *
 * drizzle's neon-http session over our own client (neon-http-client.ts): drizzle's `neon-http`
 * entry would bring @neondatabase/serverless along, which this Worker no longer loads. It is given
 * no schema: the service makes no relational queries (`db.query`), and working out their
 * configuration for every table would cost each isolate's first request.
 */
export function openNeonHttpDatabase(databaseUrl: string, options: { fetchEndpoint?: string } = {}): Database {
  const client = new NeonHttpClient(databaseUrl, options).queryFunction();
  const dialect = new PgDialect();
  const session = new NeonHttpSession(client as never, dialect, undefined);
  const db = new PgDatabase(dialect, session, undefined) as unknown as Db;
  return {
    db,
    atomic: async (build) => {
      const statements = build(db);
      if (statements.length === 0) return [];
      return [...(await session.batch(statements as never))];
    },
    writeAsOne: (build) => writeAsOne(db, build),
    close: async () => {},
  };
}
