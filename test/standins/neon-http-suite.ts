import { type NeonQueryFunction, neon, neonConfig } from '@neondatabase/serverless';
import { eq, sql as dsql } from 'drizzle-orm';
import { type NeonHttpDatabase, drizzle } from 'drizzle-orm/neon-http';
import { boolean, customType, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNeonHttpStandin } from '../../local/standins/neon-http.js';
import type { SqlExecutor } from '../../local/standins/sql-executors.js';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';

/**
 * The Neon SQL-over-HTTP stand-in, driven by the real @neondatabase/serverless driver and drizzle's
 * neon-http driver. Shared by the PGlite (fast) and PostgreSQL (integration) suites.
 */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

function thingsTable(name: string) {
  return pgTable(
    name,
    {
      id: uuid('id').primaryKey(),
      label: text('label').notNull(),
      count: integer('count').notNull(),
      active: boolean('active').notNull(),
      data: jsonb('data').$type<Record<string, unknown>>().notNull(),
      blob: bytea('blob').notNull(),
      at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
      note: text('note'),
    },
    (t) => [uniqueIndex(`${name}_label_key`).on(t.label)],
  );
}

/** The SQLSTATE of a failed call: on the NeonDbError, or on the cause drizzle wraps it in. */
function sqlstate(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  return (typeof e?.code === 'string' ? e.code : undefined) ?? (e?.cause?.code as string | undefined);
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

export function describeNeonHttpStandin(title: string, openExecutor: () => Promise<SqlExecutor>) {
  describe(title, () => {
    const table = `standin_things_${Math.random().toString(36).slice(2, 10)}`;
    const things = thingsTable(table);
    const connectionString = 'postgresql://app:secret@db.local.test/esign';
    let served: ServedStandin;
    let sql: NeonQueryFunction<false, false>;
    let db: NeonHttpDatabase;
    const row = (label: string, overrides: Partial<typeof things.$inferInsert> = {}) => ({
      id: crypto.randomUUID(),
      label,
      count: 1,
      active: true,
      data: {},
      blob: new Uint8Array([1]),
      at: new Date(),
      ...overrides,
    });

    beforeAll(async () => {
      served = await serveStandin(createNeonHttpStandin(await openExecutor()));
      neonConfig.fetchEndpoint = () => `${served.url}/sql`;
      sql = neon(connectionString);
      db = drizzle(sql);
      await sql.query(
        `create table ${table} (id uuid primary key, label text not null, count integer not null,
          active boolean not null, data jsonb not null, blob bytea not null, at timestamptz(3) not null, note text)`,
      );
      await sql.query(`create unique index ${table}_label_key on ${table} (label)`);
    });

    afterAll(async () => {
      await sql?.query(`drop table if exists ${table}`);
      await served?.close();
    });

    it('round-trips every column type exactly through drizzle', async () => {
      const blob = new Uint8Array([0, 1, 127, 128, 255, 92, 120]);
      const at = new Date('2026-03-04T05:06:07.891Z');
      const data = { name: 'Zoë “quoted”', nested: { list: [1, 2.5, null, true], empty: {} } };
      const inserted = row(`round-trip ' " \\ ${Math.random()}`, { count: -2147483648, active: false, data, blob, at, note: null });
      await db.insert(things).values(inserted);
      const [back] = await db.select().from(things).where(eq(things.id, inserted.id));
      expect(back).toBeDefined();
      expect(back!.id).toBe(inserted.id);
      expect(back!.label).toBe(inserted.label);
      expect(back!.count).toBe(-2147483648);
      expect(back!.active).toBe(false);
      expect(back!.data).toEqual(data);
      expect(Array.from(back!.blob)).toEqual(Array.from(blob));
      expect(back!.at).toBeInstanceOf(Date);
      expect(back!.at.getTime()).toBe(at.getTime());
      expect(back!.note).toBeNull();
    });

    it('answers values in their Postgres text form, as Neon does', async () => {
      const id = crypto.randomUUID();
      await sql.query(`insert into ${table} (id, label, count, active, data, blob, at) values ($1, $2, 7, true, $3, $4, $5)`, [
        id,
        `text-form-${id}`,
        { b: 1, a: [true] },
        new Uint8Array([0xde, 0xad, 0x00]),
        new Date('2026-01-02T03:04:05.600Z'),
      ]);
      const response = await fetch(`${served.url}/sql`, {
        method: 'POST',
        headers: { 'Neon-Connection-String': connectionString, 'Neon-Array-Mode': 'true', 'Neon-Raw-Text-Output': 'true' },
        body: JSON.stringify({ query: `select count, active, data, blob, at, note from ${table} where id = $1`, params: [id] }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { command: string; rowCount: number; fields: { name: string; dataTypeID: number }[]; rows: unknown[][] };
      expect(body.command).toBe('SELECT');
      expect(body.rowCount).toBe(1);
      expect(body.fields.map((f) => [f.name, f.dataTypeID])).toEqual([
        ['count', 23],
        ['active', 16],
        ['data', 3802],
        ['blob', 17],
        ['at', 1184],
        ['note', 25],
      ]);
      expect(body.rows).toEqual([['7', 't', '{"a": [true], "b": 1}', '\\xdead00', '2026-01-02 03:04:05.6+00', null]]);
    });

    it('answers objects with JSON values when a hand-made request asks for them', async () => {
      const response = await fetch(`${served.url}/sql`, {
        method: 'POST',
        headers: { 'Neon-Connection-String': connectionString, 'Neon-Array-Mode': 'false', 'Neon-Raw-Text-Output': 'false' },
        body: JSON.stringify({ query: `select $1::int as n, true as b, '{"x":1}'::jsonb as j, 'hi' as s, null::text as z`, params: [41] }),
      });
      expect(await response.json()).toMatchObject({ rows: [{ n: 41, b: true, j: { x: 1 }, s: 'hi', z: null }], rowAsArray: false });
    });

    it('binds parameters, never splicing them into the SQL', async () => {
      const [sum] = await sql.query('select $1::int + $2::int as sum', [2, 3]);
      expect(sum).toEqual({ sum: 5 });
      const hostile = `x'); drop table ${table}; --`;
      const [echo] = await sql`select ${hostile}::text as v, ${null}::text as n`;
      expect(echo).toEqual({ v: hostile, n: null });
      const [count] = await sql.query(`select count(*)::int as c from ${table} where label = $1`, [hostile]);
      expect(count).toEqual({ c: 0 });
    });

    it('reports command and rowCount with fullResults', async () => {
      const label = `full-${crypto.randomUUID()}`;
      await db.insert(things).values(row(label));
      const result = await sql.query(`update ${table} set count = count + 1 where label = $1`, [label], { fullResults: true });
      expect(result.command).toBe('UPDATE');
      expect(result.rowCount).toBe(1);
    });

    it('commits sql.transaction([...]) together and answers each result', async () => {
      const tag = crypto.randomUUID();
      const results = await sql.transaction((tx) => [
        tx`insert into ${sql.unsafe(table)} (id, label, count, active, data, blob, at) values (${crypto.randomUUID()}, ${`${tag}-a`}, 1, true, '{}', '\\x01', now())`,
        tx`insert into ${sql.unsafe(table)} (id, label, count, active, data, blob, at) values (${crypto.randomUUID()}, ${`${tag}-b`}, 2, true, '{}', '\\x01', now())`,
        tx`select count(*)::int as c from ${sql.unsafe(table)} where label like ${`${tag}-%`}`,
      ]);
      expect(results[2]).toEqual([{ c: 2 }]);
      const [after] = await sql.query(`select count(*)::int as c from ${table} where label like $1`, [`${tag}-%`]);
      expect(after).toEqual({ c: 2 });
    });

    it('commits a drizzle db.batch([...]) together', async () => {
      const tag = crypto.randomUUID();
      const [, , seen] = await db.batch([
        db.insert(things).values(row(`${tag}-1`)),
        db.insert(things).values(row(`${tag}-2`)),
        db
          .select({ c: dsql<number>`count(*)::int` })
          .from(things)
          .where(dsql`${things.label} like ${`${tag}-%`}`),
      ]);
      expect(seen).toEqual([{ c: 2 }]);
    });

    it('rolls a whole batch back when its second statement violates a unique index (23505)', async () => {
      const taken = `taken-${crypto.randomUUID()}`;
      await db.insert(things).values(row(taken));
      const first = row(`first-${crypto.randomUUID()}`);
      const error = await failure(db.batch([db.insert(things).values(first), db.insert(things).values(row(taken))]));
      expect(sqlstate(error)).toBe('23505');
      expect(await db.select().from(things).where(eq(things.id, first.id))).toEqual([]);

      const alsoFirst = row(`first-${crypto.randomUUID()}`);
      const txError = await failure(
        sql.transaction([
          sql.query(`insert into ${table} (id, label, count, active, data, blob, at) values ($1, $2, 1, true, '{}', '\\x01', now())`, [
            alsoFirst.id,
            alsoFirst.label,
          ]),
          sql.query(`insert into ${table} (id, label, count, active, data, blob, at) values ($1, $2, 1, true, '{}', '\\x01', now())`, [
            crypto.randomUUID(),
            taken,
          ]),
        ]),
      );
      expect((txError as Error).name).toBe('NeonDbError');
      expect(sqlstate(txError)).toBe('23505');
      expect((txError as { constraint?: string }).constraint).toBe(`${table}_label_key`);
      expect(await sql.query(`select id from ${table} where id = $1`, [alsoFirst.id])).toEqual([]);
    });

    it('raises the SQLSTATE of a failing single statement', async () => {
      expect(sqlstate(await failure(sql`selec 1`))).toBe('42601');
      const taken = `single-${crypto.randomUUID()}`;
      await db.insert(things).values(row(taken));
      expect(sqlstate(await failure(db.insert(things).values(row(taken))))).toBe('23505');
      // Neon runs statements with the extended protocol, which refuses several in one string.
      expect(sqlstate(await failure(sql`select 1; select 2`))).toBe('42601');
    });

    it('honours the batch isolation level, read-only and deferrable headers', async () => {
      const [level, readOnly, deferrable] = await sql.transaction(
        [
          sql`select current_setting('transaction_isolation') as v`,
          sql`select current_setting('transaction_read_only') as v`,
          sql`select current_setting('transaction_deferrable') as v`,
        ],
        { isolationLevel: 'Serializable', readOnly: true, deferrable: true },
      );
      expect([level, readOnly, deferrable]).toEqual([[{ v: 'serializable' }], [{ v: 'on' }], [{ v: 'on' }]]);
      const [repeatable] = await sql.transaction([sql`select current_setting('transaction_isolation') as v`], { isolationLevel: 'RepeatableRead' });
      expect(repeatable).toEqual([{ v: 'repeatable read' }]);
      const write = sql.query(`insert into ${table} (id, label, count, active, data, blob, at) values ($1, $2, 1, true, '{}', '\\x01', now())`, [
        crypto.randomUUID(),
        `ro-${crypto.randomUUID()}`,
      ]);
      expect(sqlstate(await failure(sql.transaction([write], { readOnly: true })))).toBe('25006');
    });

    it('keeps concurrent batches apart', async () => {
      const tag = crypto.randomUUID();
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => db.batch([db.insert(things).values(row(`${tag}-${i}-a`)), db.insert(things).values(row(`${tag}-${i}-b`))])),
      );
      const [count] = await sql.query(`select count(*)::int as c from ${table} where label like $1`, [`${tag}-%`]);
      expect(count).toEqual({ c: 16 });
    });

    it('answers 400 with a message for a malformed request', async () => {
      const post = (body: string, headers: Record<string, string> = { 'Neon-Connection-String': connectionString }) =>
        fetch(`${served.url}/sql`, { method: 'POST', headers, body });
      const noJson = await post('{nope');
      expect(noJson.status).toBe(400);
      expect(await noJson.json()).toHaveProperty('message');
      expect((await post(JSON.stringify({ params: [] }))).status).toBe(400);
      expect((await post(JSON.stringify({ query: 'select 1', params: [] }), {})).status).toBe(400);
    });
  });
}
