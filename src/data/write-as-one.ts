import { type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from './database.js';

/**
 * Writes run as one SQL statement: each becomes a data-modifying WITH query of a statement that
 * selects nothing. One statement is atomic by itself, so it needs no transaction: one round trip
 * and one parse on every driver, where a batch costs BEGIN, each statement and COMMIT on PGlite
 * and node-postgres. The writes see the same snapshot, not each other's rows (foreign keys are
 * checked at the statement's end, so a row may reference one inserted beside it), and a row one
 * of them deletes still blocks a unique key another inserts: such pairs belong in `atomic`.
 * Every adapter's `Database.writeAsOne`.
 */
export async function writeAsOne(db: Db, build: (q: Db) => SQLWrapper[]): Promise<void> {
  const parts = build(db).map((statement, i) => sql`${sql.raw(`w${i}`)} as (${statement.getSQL()})`);
  await db.execute(sql`with ${sql.join(parts, sql`, `)} select 1`);
}
