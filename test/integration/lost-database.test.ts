/**
 * The service over a real PostgreSQL that goes away and comes back (the node-postgres adapter,
 * which `npm run dev` seeds through and the suites run on), reached through a loopback proxy the
 * test cuts and restores: the process survives the dropped connections, requests that need the
 * database answer 503 service_unavailable meanwhile, and the same pool serves again once it is back.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { embeddedServices } from '../../src/adapters/embedded/embedded-services.js';
import { openNodePostgresDatabase } from '../../src/adapters/postgres/node-postgres-database.js';
import { createApp } from '../../src/app.js';
import { routes } from '../../functions/routes.js';
import type { Database } from '../../src/data/database.js';
import { isDatabaseUnreachable } from '../../src/data/errors.js';
import { ManualClock } from '../../src/ports/clock.js';
import { type CuttableProxy, startCuttableProxy } from '../support/cuttable-proxy.js';
import { expectErrorLogs } from '../support/expected-errors.js';
import { createTestCompany, type TestCompany } from '../support/factories.js';
import { call, errorCode } from '../support/http.js';
import type { TestStack } from '../support/stack.js';

const { expectLogged } = expectErrorLogs();
const lossLogged = /a connection to PostgreSQL was lost/;

let proxy: CuttableProxy;
let database: Database;
let stack: TestStack;
let company: TestCompany;

beforeAll(async () => {
  const databaseUrl = inject('databaseUrl');
  const target = new URL(databaseUrl);
  proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  database = await openNodePostgresDatabase(proxy.through(databaseUrl), { migrate: false });
  const services = embeddedServices({
    database,
    clock: new ManualClock(new Date()),
    config: {
      tokenSecret: new TextEncoder().encode('test-token-secret-0123456789-abcdefghij'),
      adminToken: undefined,
      baseUrl: 'https://esign.example.test',
      keyEnvironment: 'test',
    },
    queueName: `test-${crypto.randomUUID()}`,
  });
  stack = { app: createApp(services, routes), services, clock: new ManualClock(new Date()), close: async () => {} };
  company = await createTestCompany(stack);
});

afterAll(async () => {
  await proxy?.restore();
  await stack?.services.inProcessQueue.close();
  await database?.close();
  await proxy?.close();
});

describe('PostgreSQL out of reach, then back', () => {
  it('answers 503 service_unavailable while it is gone and 200 again once it is back, without a restart', async () => {
    expectLogged(lossLogged);
    const templates = () => call(stack, 'GET', '/v1/templates', { token: company.owner.token });
    expect((await templates()).status).toBe(200);

    // The pool's idle connections drop with the cut: unheard, each would be an uncaught error.
    await proxy.cut();
    for (const answer of [
      await templates(),
      await call(stack, 'POST', '/v1/contacts', { token: company.owner.token, body: { name: 'Ada', email: 'ada@example.test' } }),
    ]) {
      expect(answer.status).toBe(503);
      expect(errorCode(answer)).toBe('service_unavailable');
      expect(answer.headers.get('retry-after')).toBe('5');
    }

    await proxy.restore();
    const back = await templates();
    expect(back.status).toBe(200);
    expect(back.body).toHaveProperty('data');
    const added = await call(stack, 'POST', '/v1/contacts', { token: company.owner.token, body: { name: 'Ada', email: 'ada@example.test' } });
    expect(added.status).toBe(201);
  });

  it('survives a connection lost inside a transaction, between two statements, and runs the next one', async () => {
    expectLogged(lossLogged);
    // The statements are built once the transaction has begun: the first cuts the database while
    // the transaction holds a connection, which pg reports as that client's own error event, with
    // no statement running to receive it.
    const failure = await database
      .atomic((q) => [proxy.cut(), q.execute(sql`select 1`)])
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failure).toBeDefined();
    expect(isDatabaseUnreachable(failure)).toBe(true);

    await proxy.restore();
    const [result] = await database.atomic((q) => [q.execute(sql`select 2 as two`)]);
    expect((result as { rows: unknown[] }).rows).toEqual([{ two: 2 }]);
  });

  it('tells a refused connection apart from a refused statement', async () => {
    const refused = await database.db.execute(sql`select 1/0`).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isDatabaseUnreachable(refused)).toBe(false);
  });
});
