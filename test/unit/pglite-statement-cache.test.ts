/**
 * The embedded database's client keeps statements prepared: it must answer exactly as PGlite's own
 * `query` does (values in, rows out, errors), inside and outside transactions, and stay correct
 * when its cache is full or a statement fails.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementCachingClient } from '../../src/adapters/embedded/pglite-statement-cache.js';

let pg: PGlite;
beforeAll(async () => {
  pg = new PGlite();
  await pg.exec(`create table kinds (
    id int primary key, name text, doc jsonb, raw bytea, at timestamptz, day date, tags text[], ok boolean, big bigint, amount numeric)`);
});
afterAll(() => pg.close());

// drizzle's options for a query that maps its rows itself: dates stay text.
const drizzleOptions = { rowMode: 'array' as const, parsers: { 1184: (value: string) => value, 1082: (value: string) => value } };

describe('the statement-caching PGlite client', () => {
  it('stores and reads every kind of value as PGlite does', async () => {
    const client = statementCachingClient(pg);
    const row = [1, 'Ada', { a: [1, 'two'] }, new Uint8Array([0, 1, 254]), new Date('2026-01-02T03:04:05.678Z'), '2026-05-06', ['x', 'y'], true, 12345678901n, '12.50'];
    const insert = 'insert into kinds values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';
    expect((await client.query(insert, row)).affectedRows).toBe(1);
    expect((await pg.query(insert, [2, ...row.slice(1)])).affectedRows).toBe(1);
    const select = 'select * from kinds where id = $1';
    for (const options of [undefined, drizzleOptions]) {
      for (const id of [1, 2]) {
        const ours = await client.query(select, [id], options);
        const theirs = await pg.query(select, [id], options);
        expect(ours.rows).toEqual(theirs.rows);
        expect(ours.fields).toEqual(theirs.fields);
      }
    }
    expect((await client.query<{ name: string }>(select, [1])).rows[0]!.name).toBe('Ada');
    expect((await client.query('select count(*)::int as n from kinds where id > $1', [0])).rows).toEqual([{ n: 2 }]);
  });

  it('counts the rows a change touched, and answers a statement without parameters', async () => {
    const client = statementCachingClient(pg);
    await client.query('insert into kinds (id, name) values ($1, $2), ($3, $4)', [10, 'a', 11, 'b']);
    const updated = await client.query('update kinds set name = upper(name) where id >= $1 and id <= $2', [10, 11]);
    expect(updated.affectedRows).toBe(2);
    expect((await client.query('select name from kinds where id >= 10 order by id')).rows).toEqual([{ name: 'A' }, { name: 'B' }]);
    expect((await client.query('delete from kinds where id >= $1', [10])).affectedRows).toBe(2);
  });

  it('fails as PGlite does, and runs the same statement again afterwards', async () => {
    const client = statementCachingClient(pg);
    const insert = 'insert into kinds (id, name) values ($1, $2)';
    await client.query(insert, [20, 'first']);
    const error = await client.query(insert, [20, 'again']).catch((err: unknown) => err);
    expect(error).toMatchObject({ code: '23505', query: insert, params: [20, 'again'] });
    await client.query(insert, [21, 'second']);
    await expect(client.query('select nonsense from kinds where id = $1', [1])).rejects.toMatchObject({ code: '42703' });
    await expect(client.query('select name from kinds where id = $1', [21])).resolves.toMatchObject({ rows: [{ name: 'second' }] });
  });

  it('keeps a transaction whole: its statements commit together or not at all', async () => {
    const client = statementCachingClient(pg);
    const insert = 'insert into kinds (id, name) values ($1, $2)';
    await client.transaction(async (tx) => {
      await tx.query(insert, [30, 'kept']);
      await tx.query(insert, [31, 'kept too']);
    });
    await expect(
      client.transaction(async (tx) => {
        await tx.query(insert, [32, 'gone']);
        await tx.query(insert, [30, 'duplicate']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    // A statement outside waits for a transaction under way instead of joining it.
    let inside!: () => void;
    const running = client.transaction(async (tx) => {
      await tx.query(insert, [33, 'in the transaction']);
      await new Promise<void>((resolve) => (inside = resolve));
      throw new Error('rolled back');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = client.query(insert, [34, 'outside']);
    inside();
    await expect(running).rejects.toThrow('rolled back');
    await outside;
    const ids = await client.query<{ id: number }>('select id from kinds where id >= $1 and id < $2 order by id', [30, 40]);
    expect(ids.rows.map((row) => row.id)).toEqual([30, 31, 34]);
  });

  it('stays correct past its capacity, and shares prepared names between clients of one PGlite', async () => {
    const first = statementCachingClient(pg);
    const second = statementCachingClient(pg);
    for (let i = 0; i < 300; i++) {
      const client = i % 2 === 0 ? first : second;
      const { rows } = await client.query<{ n: number }>(`select $1::int + ${i} as n`, [1]);
      expect(rows).toEqual([{ n: i + 1 }]);
    }
    // The oldest statements were closed to make room; they are prepared again when used.
    await expect(first.query<{ n: number }>('select $1::int + 0 as n', [5])).resolves.toMatchObject({ rows: [{ n: 5 }] });
  });
});
