/**
 * The database port. Domain code queries through drizzle's Postgres builder (`db`), and makes
 * multi-row changes with `atomic`, which takes statements built up front: no reads between them,
 * so that Neon's HTTP driver can carry the whole change as one batch in one round trip, while the
 * embedded and node-postgres adapters run the same list inside an ordinary transaction.
 */
import type { SQLWrapper } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** A drizzle query that has been built but not yet awaited. */
export type Statement = PromiseLike<unknown>;

export interface Database {
  readonly db: Db;
  atomic(build: (q: Db) => Statement[]): Promise<unknown[]>;
  /** Writes whose results nobody reads, as one SQL statement (write-as-one.ts): the cheapest atomic change. */
  writeAsOne(build: (q: Db) => SQLWrapper[]): Promise<void>;
  close(): Promise<void>;
}

/** Runs the statements one after another inside a transaction of a driver that has them. */
export async function runInTransaction(db: Db, build: (q: Db) => Statement[]): Promise<unknown[]> {
  return db.transaction(async (tx) => {
    const results: unknown[] = [];
    for (const statement of build(tx as unknown as Db)) results.push(await statement);
    return results;
  });
}
