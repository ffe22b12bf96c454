/**
 * `npm run migrate`: applies the migrations in drizzle/ to the PostgreSQL at DATABASE_URL (a Neon
 * database in production; Neon accepts ordinary TCP connections for this). Safe to run again:
 * drizzle records what it applied and skips it.
 */
import { openNodePostgresDatabase } from '../src/adapters/postgres/node-postgres-database.js';

const url = process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error('Set DATABASE_URL to a postgres:// URL, for example the Neon connection string.');
  process.exit(1);
}

try {
  const database = await openNodePostgresDatabase(url);
  await database.close();
  console.log(`Migrations applied to ${new URL(url).host}${new URL(url).pathname}.`);
} catch (err) {
  // The message names host and database, never the URL's password.
  console.error(`Migrating failed. ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
