/**
 * The Worker's own Neon SQL-over-HTTP client (src/adapters/production/neon-http-client.ts) side by
 * side with the real @neondatabase/serverless driver, both against the Neon stand-in over PGlite:
 * the same requests on the wire (endpoint, headers, body), the same parsed values for every type
 * the service reads and a few it does not, the same errors, and the same batch.
 */
import { PGlite } from '@electric-sql/pglite';
import { neon, neonConfig } from '@neondatabase/serverless';
import { drizzle } from 'drizzle-orm/neon-http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNeonHttpStandin } from '../../local/standins/neon-http.js';
import { pgliteExecutor } from '../../local/standins/sql-executors.js';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { NeonDbError, NeonHttpClient, type NeonQueryFunction } from '../../src/adapters/production/neon-http-client.js';

const connectionString = 'postgresql://app:secret@ep-cool-1234-pooler.eu-central-1.aws.neon.tech/neondb?sslmode=require';
let served: ServedStandin;
let endpoint: string;
let ours: NeonQueryFunction;
let driverEndpoint: typeof neonConfig.fetchEndpoint;
const realFetch = globalThis.fetch;
let sent: { url: string; headers: Record<string, string>; body: unknown }[] = [];

beforeAll(async () => {
  served = await serveStandin(createNeonHttpStandin(pgliteExecutor(new PGlite(), { closeDbOnClose: true })));
  endpoint = `${served.url}/sql`;
  ours = new NeonHttpClient(connectionString, { fetchEndpoint: endpoint }).queryFunction();
  driverEndpoint = neonConfig.fetchEndpoint;
  // The driver as drizzle's neon-http sets it up (timestamps, dates and intervals left as text), as the Worker used it.
  drizzle(neon(connectionString));
  await realFetch(endpoint, {
    method: 'POST',
    headers: { 'Neon-Connection-String': connectionString },
    body: JSON.stringify({ query: 'create table client_things (id int primary key, label text unique)' }),
  });
  // Every request either client makes, as it went out.
  globalThis.fetch = async (input, init) => {
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    // Each client names itself in the connection string (application_name): that one difference is set aside.
    const named = new URL(headers['neon-connection-string']!);
    headers.application = named.searchParams.get('application_name')!.startsWith('pkg:npm/') ? 'the driver' : named.searchParams.get('application_name')!;
    named.searchParams.delete('application_name');
    headers['neon-connection-string'] = named.toString();
    sent.push({ url: String(input), headers, body: JSON.parse(String(init?.body)) });
    // Nothing leaves this machine: only addresses on it are reached.
    return String(input).startsWith('http://127.0.0.1') ? realFetch(input, init) : new Response('not reached in tests', { status: 503 });
  };
});

afterEach(() => {
  neonConfig.fetchEndpoint = driverEndpoint;
  sent = [];
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  await served?.close();
});

/** A request of the driver's, named as ours names itself. */
const asOurs = (request: (typeof sent)[number]) => {
  expect(request.headers.application).toBe('the driver');
  return { ...request, headers: { ...request.headers, application: 'esign-api' } };
};

/** The real driver, aimed at the stand-in (its endpoint setting is global: restored after each test). */
function driver() {
  neonConfig.fetchEndpoint = () => endpoint;
  return neon(connectionString);
}

const everyType = `select true as b, false as f, 7::int2 as small, 42 as int, 9007199254740993::int8 as big,
  1.5::float8 as dbl, 0.1::float4 as flt, 12.345::numeric as num, 'text ''q'' "d"' as txt, null::text as nothing,
  '{"a":[1,2]}'::json as js, '{"b":true}'::jsonb as jsb, '\\x00ff10'::bytea as bin,
  'b3e1c0de-7a11-4b3c-9d2e-0f1a2b3c4d5e'::uuid as id, '2026-11-24 10:00:00.123+00'::timestamptz as at,
  '2026-11-24 10:00:00'::timestamp as local, '2026-11-24'::date as day, '1 day 02:00'::interval as span`;

describe('our Neon HTTP client, beside the real driver', () => {
  it('sends the same request and parses every type the same way, in both row shapes', async () => {
    for (const options of [{ arrayMode: true, fullResults: true }, { arrayMode: false, fullResults: true }, { arrayMode: false, fullResults: false }]) {
      const theirs = await driver().query(everyType, [], options);
      const theirRequest = sent.pop()!;
      const mine = await ours(everyType, [], options);
      const myRequest = sent.pop()!;
      expect(myRequest).toEqual(asOurs(theirRequest));
      const comparable = (result: unknown) => {
        const { _parsers, _types, viaNeonFetch, ...rest } = result as Record<string, unknown>;
        return Array.isArray(result) ? result : rest;
      };
      // bytea: the driver gives a Buffer; we give Postgres's hex text of the same bytes, which the
      // schema's bytea column decodes (src/data/schema.ts).
      const asHexText = (_key: string, v: unknown) =>
        v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer' ? `\\x${Buffer.from((v as { data: number[] }).data).toString('hex')}` : v;
      expect(comparable(mine)).toEqual(JSON.parse(JSON.stringify(comparable(theirs), asHexText)));
      expect(JSON.stringify(mine)).toContain('"\\\\x00ff10"');
    }
  });

  it('sends parameters as the driver does: text, numbers, booleans, bytes, JSON, arrays and null', async () => {
    const params = ['plain', 42, 1.5, true, null, new Uint8Array([0, 255]), { a: [1, 'x'] }, ['a', 'b"c', null], 12n];
    const query = 'select $1::text, $2::int, $3::float8, $4::bool, $5::text, $6::bytea, $7::jsonb, $8::text[], $9::int8';
    await driver().query(query, params);
    const theirRequest = sent.pop()!;
    await ours(query, params);
    expect(sent.pop()).toEqual(asOurs(theirRequest));
  });

  it('sends a batch as one transaction, and answers each statement in its own shape', async () => {
    const sql = driver();
    // Typed loosely: the driver's types tie every statement of a batch to one shape, its protocol does not.
    const theirs: unknown[] = await sql.transaction([sql.query('select 1 as one', [], { arrayMode: true, fullResults: true }) as never, sql.query('select $1::text as two', ['2'])]);
    const theirRequest = sent.pop()!;
    const mine = await ours.transaction([ours('select 1 as one', [], { arrayMode: true, fullResults: true }), ours('select $1::text as two', ['2'])]);
    expect(sent.pop()).toEqual(asOurs(theirRequest));
    expect((mine[0] as { rows: unknown }).rows).toEqual((theirs[0] as { rows: unknown }).rows);
    expect(mine[1]).toEqual(theirs[1]);
  });

  it('sends nothing until a statement is awaited, and sends it once', async () => {
    const pending = ours('select 1 as one');
    expect(sent).toHaveLength(0);
    const first = await pending;
    expect(await pending).toBe(first);
    expect(sent).toHaveLength(1);
  });

  it('throws Postgres refusals with their SQLSTATE and fields, as the driver does', async () => {
    await ours("insert into client_things values (1, 'one')");
    const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a refusal'), (error: unknown) => error as Record<string, unknown>);
    const theirs = await failure(driver().query("insert into client_things values (2, 'one')"));
    const mine = await failure(Promise.resolve(ours("insert into client_things values (2, 'one')")));
    expect(mine).toBeInstanceOf(NeonDbError);
    expect({ message: mine.message, code: mine.code, constraint: mine.constraint, detail: mine.detail }).toEqual({
      message: theirs.message,
      code: '23505',
      constraint: theirs.constraint,
      detail: theirs.detail,
    });
  });

  it("reports an unreachable endpoint or a server error by its cause, never the connection string's password", async () => {
    const nowhere = new NeonHttpClient(connectionString, { fetchEndpoint: 'http://127.0.0.1:1/sql' }).queryFunction();
    await expect(Promise.resolve(nowhere('select 1'))).rejects.toThrow(/^Error connecting to database/);
    const broken = new NeonHttpClient(connectionString, { fetchEndpoint: `${served.url}/elsewhere` }).queryFunction();
    const error = await Promise.resolve(broken('select 1')).catch((e: Error) => e);
    expect(String(error)).toMatch(/Server error \(HTTP status 404\)/);
    expect(String(error)).not.toContain('secret');
  });

  it("reaches Neon's regional API host unless told otherwise, as the driver does", async () => {
    await expect(Promise.resolve(new NeonHttpClient(connectionString).queryFunction()('select 1'))).rejects.toThrow(/HTTP status 503/);
    expect(sent.pop()?.url).toBe('https://api.eu-central-1.aws.neon.tech/sql');
  });
});
