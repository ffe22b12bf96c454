import { neon, neonConfig } from '@neondatabase/serverless';
import { drizzle } from 'drizzle-orm/neon-http';
import type { Database, Db } from '../../data/database.js';
import * as schema from '../../data/schema.js';
import { writeAsOne } from '../../data/write-as-one.js';

/**
 * Neon over HTTP: every query is one stateless HTTPS request, which suits Workers. Atomic changes
 * go as one batch, which Neon runs in a single transaction in one round trip. `fetchEndpoint`
 * aims the driver at a local stand-in during development; production leaves it unset.
 */
export function openNeonHttpDatabase(databaseUrl: string, options: { fetchEndpoint?: string } = {}): Database {
  if (options.fetchEndpoint) {
    const endpoint = options.fetchEndpoint;
    neonConfig.fetchEndpoint = () => endpoint;
  }
  const db = drizzle(neon(databaseUrl), { schema });
  return {
    db: db as unknown as Db,
    atomic: async (build) => {
      const statements = build(db as unknown as Db);
      if (statements.length === 0) return [];
      return [...(await db.batch(statements as unknown as Parameters<typeof db.batch>[0]))];
    },
    writeAsOne: (build) => writeAsOne(db as unknown as Db, build),
    close: async () => {},
  };
}
