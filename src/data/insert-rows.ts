import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './database.js';

/**
 * An INSERT of many rows that passes them as one JSON parameter, expanded by the database
 * (`json_populate_recordset`), instead of one bound parameter per value: building the statement
 * costs one JSON.stringify, however many rows there are. Every row gives every column that has no
 * null allowed (a column left out is null, not its default). Keys are the drizzle field names.
 */
export function insertRows<T extends PgTable>(q: Db, table: T, rows: Partial<T['$inferInsert']>[]) {
  const columns = getTableColumns(table);
  const named = rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) out[columns[key]!.name] = value instanceof Date ? value.toISOString() : value;
    return out;
  });
  return q.insert(table).select(sql`select * from json_populate_recordset(null::${table}, ${JSON.stringify(named)}::json)`);
}
