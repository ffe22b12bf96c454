import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Statement } from './database.js';

/**
 * An insert that happens only if `condition` holds when the batch reaches it: the records of a
 * conditional state change (its audit row, event and outbox rows) go in the same batch as the
 * change, and are skipped when the change did not happen. Batches allow no reads in between, so
 * the condition is checked by the database. A row whose id already exists is left as it is, unless
 * `onConflict` says otherwise (`on conflict (id) do update …`, for a row kept up to date).
 */
export function insertWhen<T extends PgTable>(
  q: Db,
  table: T,
  values: T['$inferInsert'],
  condition: SQL,
  onConflict: SQL = sql`on conflict do nothing`,
): Statement {
  const columns = getTableColumns(table);
  const given = Object.entries(values as Record<string, unknown>).filter(([, value]) => value !== undefined);
  const names = given.map(([key]) => sql.identifier(columns[key]!.name));
  // Typed casts: a parameter in a select list has no type to take from the target column.
  const selected = given.map(([key, value]) => {
    const column = columns[key]!;
    return value === null ? sql`null` : sql`${column.mapToDriverValue(value)}::${sql.raw(column.getSQLType())}`;
  });
  return q.execute(sql`insert into ${table} (${sql.join(names, sql`, `)}) select ${sql.join(selected, sql`, `)} where ${condition} ${onConflict}`);
}
