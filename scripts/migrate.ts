/**
 * `npm run migrate`: applies the migrations in drizzle/ to the PostgreSQL at DATABASE_URL (a Neon
 * database in production; Neon accepts ordinary TCP connections for this). Safe to run again:
 * drizzle records what it applied and skips it.
 *
 * Then the documents still kept in Postgres (bytea, from before the document store) are moved into
 * the store, a row at a time, when this process can reach it: DOCUMENTS_DIR names the folder of a
 * file store (a server run on Node over PostgreSQL). The deployed Workers' store is an R2 binding,
 * which only a Worker holds: there the housekeeping cron moves them, a few a minute, and a read
 * that meets one moves it first.
 */
import { count, isNotNull } from 'drizzle-orm';
import { FileDocumentStore } from '../src/adapters/embedded/file-document-store.js';
import { openNodePostgresDatabase } from '../src/adapters/postgres/node-postgres-database.js';
import { envelopes, templateDocuments } from '../src/data/schema.js';
import { moveDocuments } from '../src/domain/documents/move-documents.js';

const url = process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error('Set DATABASE_URL to a postgres:// URL, for example the Neon connection string.');
  process.exit(1);
}
const documentsDir = process.env.DOCUMENTS_DIR;

try {
  const database = await openNodePostgresDatabase(url);
  try {
    console.log(`Migrations applied to ${new URL(url).host}${new URL(url).pathname}.`);
    if (documentsDir) {
      const { moved } = await moveDocuments({ database, documents: new FileDocumentStore(documentsDir) });
      console.log(`${moved} document(s) moved from Postgres into ${documentsDir}.`);
    } else {
      const [[templates], [finished]] = await Promise.all([
        database.db.select({ n: count() }).from(templateDocuments).where(isNotNull(templateDocuments.content)),
        database.db.select({ n: count() }).from(envelopes).where(isNotNull(envelopes.signedDocument)),
      ]);
      const left = (templates?.n ?? 0) + (finished?.n ?? 0);
      if (left > 0) console.log(`${left} document(s) still in Postgres: the Worker's housekeeping moves them into R2 (or set DOCUMENTS_DIR for a file store).`);
    }
  } finally {
    await database.close();
  }
} catch (err) {
  // The message names host and database, never the URL's password.
  console.error(`Migrating failed. ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
