import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { type Database, type Db, runInTransaction } from '../../data/database.js';
import { migrationsFolder } from '../../data/migrations.js';
import { writeAsOne } from '../../data/write-as-one.js';
import * as schema from '../../data/schema.js';

/**
 * The embedded Postgres: PGlite in a data directory (or in memory when none is given), migrated
 * on open. PGlite serialises queries on its one connection and holds it for a whole transaction.
 */
export async function openPgliteDatabase(source?: string | PGlite): Promise<Database> {
  // An open instance may be shared, as `npm run dev` shares it with the Neon stand-in.
  const client = source instanceof PGlite ? source : source ? new PGlite(source) : new PGlite();
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    atomic: (build) => runInTransaction(db as unknown as Db, build),
    writeAsOne: (build) => writeAsOne(db as unknown as Db, build),
    close: () => client.close(),
  };
}
