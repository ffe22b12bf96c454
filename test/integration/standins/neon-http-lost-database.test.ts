/**
 * The Neon stand-in `npm run dev` serves the Worker through, over a PostgreSQL that goes away and
 * comes back (a loopback proxy the test cuts and restores): its pool survives the dropped
 * connections, it answers the Worker's client with a failure the Worker turns into 503 (never a
 * refused statement, never a 500), and it serves again once the database is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNeonHttpStandin } from '../../../local/standins/neon-http.js';
import { createStandinPool, pgPoolExecutor } from '../../../local/standins/sql-executors.js';
import { type ServedStandin, serveStandin } from '../../../local/standins/standin.js';
import { NeonHttpClient } from '../../../src/adapters/production/neon-http-client.js';
import { isDatabaseUnreachable } from '../../../src/data/errors.js';
import { type CuttableProxy, startCuttableProxy } from '../../support/cuttable-proxy.js';
import { expectErrorLogs } from '../../support/expected-errors.js';

const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const { expectLogged } = expectErrorLogs();

let proxy: CuttableProxy;
let served: ServedStandin;
let client: NeonHttpClient;

beforeAll(async () => {
  const target = new URL(postgresUrl);
  proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  served = await serveStandin(createNeonHttpStandin(pgPoolExecutor(createStandinPool(proxy.through(postgresUrl)), { endPoolOnClose: true })));
  client = new NeonHttpClient('postgres://dev:dev@neon.localhost/esign', { fetchEndpoint: `${served.url}/sql` });
});

afterAll(async () => {
  await proxy?.restore();
  await served?.close();
  await proxy?.close();
});

const statement = (text: string) => client.queryFunction()(text, [], { arrayMode: true });
const query = () => statement('select 1 as one');
const failureOf = (work: PromiseLike<unknown>) =>
  Promise.resolve(work).then(
    () => undefined,
    (err: unknown) => err,
  );

describe('the Neon stand-in over a PostgreSQL out of reach', () => {
  it('answers 503 while the database is gone, which the client reports as out of reach, and serves again once it is back', async () => {
    expectLogged(/Neon stand-in: a connection to PostgreSQL was lost/);
    expect(await query()).toEqual([[1]]);

    await proxy.cut();
    const raw = await fetch(`${served.url}/sql`, {
      method: 'POST',
      headers: { 'Neon-Connection-String': 'postgres://dev:dev@neon.localhost/esign' },
      body: JSON.stringify({ query: 'select 1', params: [] }),
    });
    expect(raw.status).toBe(503);
    for (const failure of [await failureOf(query()), await failureOf(client.queryFunction().transaction([query(), query()]))]) {
      expect(failure).toBeInstanceOf(Error);
      expect(isDatabaseUnreachable(failure)).toBe(true);
    }

    await proxy.restore();
    expect(await query()).toEqual([[1]]);
  });

  it('still answers a statement Postgres refuses as a refusal, not as out of reach', async () => {
    const failure = await failureOf(statement('select 1/0'));
    expect((failure as { code?: string }).code).toBe('22012');
    expect(isDatabaseUnreachable(failure)).toBe(false);
  });
});
