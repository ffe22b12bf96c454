/**
 * The Worker's database (drizzle over @neondatabase/serverless) through the Neon stand-in `npm run
 * dev` serves it with, over a PostgreSQL that goes away and comes back (a loopback proxy the test
 * cuts and restores): the stand-in's pool survives the dropped connections, the driver reports the
 * failure as a database out of reach, which the Worker answers 503 (never a refused statement,
 * never a 500), and it serves again once the database is back. A Neon that takes a request and
 * never answers fails the statement at its timeout, as out of reach too.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNeonHttpStandin } from '../../../local/standins/neon-http.js';
import { createStandinPool, pgPoolExecutor } from '../../../local/standins/sql-executors.js';
import { type ServedStandin, serveStandin } from '../../../local/standins/standin.js';
import { openNeonHttpDatabase } from '../../../src/adapters/production/neon-http-database.js';
import type { Database } from '../../../src/data/database.js';
import { isDataException, isDatabaseUnreachable } from '../../../src/data/errors.js';
import { type CuttableProxy, startCuttableProxy } from '../../support/cuttable-proxy.js';
import { expectErrorLogs } from '../../support/expected-errors.js';

const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const { expectLogged } = expectErrorLogs();

let proxy: CuttableProxy;
let served: ServedStandin;
let database: Database;
const connectionString = 'postgres://dev:dev@neon.localhost/esign';

beforeAll(async () => {
  const target = new URL(postgresUrl);
  proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  served = await serveStandin(createNeonHttpStandin(pgPoolExecutor(createStandinPool(proxy.through(postgresUrl)), { endPoolOnClose: true })));
  database = openNeonHttpDatabase(connectionString, { fetchEndpoint: `${served.url}/sql` });
});

afterAll(async () => {
  await proxy?.restore();
  await served?.close();
  await proxy?.close();
});

const statement = (text: string) => database.db.execute(sql.raw(text)).then((result) => (result as { rows: unknown[] }).rows);
const query = () => statement('select 1 as one');
const failureOf = (work: PromiseLike<unknown>) =>
  Promise.resolve(work).then(
    () => undefined,
    (err: unknown) => err,
  );

describe('the Neon stand-in over a PostgreSQL out of reach', () => {
  it('answers 503 while the database is gone, which the client reports as out of reach, and serves again once it is back', async () => {
    expectLogged(/Neon stand-in: a connection to PostgreSQL was lost/);
    expect(await query()).toEqual([{ one: 1 }]);

    await proxy.cut();
    const raw = await fetch(`${served.url}/sql`, {
      method: 'POST',
      headers: { 'Neon-Connection-String': connectionString },
      body: JSON.stringify({ query: 'select 1', params: [] }),
    });
    expect(raw.status).toBe(503);
    const batch = () => database.atomic((db) => [db.execute(sql`select 1`), db.execute(sql`select 2`)]);
    for (const failure of [await failureOf(query()), await failureOf(batch())]) {
      expect(failure).toBeInstanceOf(Error);
      expect(isDatabaseUnreachable(failure)).toBe(true);
    }

    await proxy.restore();
    expect(await query()).toEqual([{ one: 1 }]);
  });

  it('still answers a statement Postgres refuses as a refusal, not as out of reach', async () => {
    const failure = await failureOf(statement('select 1/0'));
    // drizzle wraps the driver's error, whose code is Postgres's SQLSTATE (22012, division by zero).
    expect((failure as { cause?: { code?: string } }).cause?.code).toBe('22012');
    expect(isDataException(failure)).toBe(true);
    expect(isDatabaseUnreachable(failure)).toBe(false);
  });
});

describe('a Neon that takes a statement and never answers', () => {
  let silent: Server;
  beforeAll(async () => {
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('fails the statement at its timeout, as a database out of reach (503), not a hang', async () => {
    const stalled = openNeonHttpDatabase(connectionString, {
      fetchEndpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/sql`,
      statementTimeoutMs: 50,
    });
    const failure = await failureOf(stalled.db.execute(sql`select 1`));
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnreachable(failure)).toBe(true);
  });
});
