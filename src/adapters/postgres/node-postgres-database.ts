import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { type Database, type Db, runInTransaction } from '../../data/database.js';
import { migrationsFolder } from '../../data/migrations.js';
import { writeAsOne } from '../../data/write-as-one.js';
import * as schema from '../../data/schema.js';
import { describeDatabaseFailure } from './database-failure.js';
import { CONNECT_TIMEOUT_MS, surviveLostConnections } from './lost-connections.js';

/** A real PostgreSQL over TCP, for the integration suites and `npm run migrate`. */
export async function openNodePostgresDatabase(url: string, options: { migrate?: boolean } = {}): Promise<Database> {
  const pool = surviveLostConnections(new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS }), 'database');
  const db = drizzle(pool, { schema });
  if (options.migrate !== false) {
    // The first query is the migration's: a database that is missing or out of reach fails here.
    await migrate(db, { migrationsFolder }).catch(async (err: unknown) => {
      await pool.end().catch(() => undefined);
      throw new Error(describeDatabaseFailure(err, url), { cause: err });
    });
  }
  return {
    db: db as unknown as Db,
    atomic: (build) => runInTransaction(db as unknown as Db, build),
    writeAsOne: (build) => writeAsOne(db as unknown as Db, build),
    close: () => pool.end(),
  };
}
