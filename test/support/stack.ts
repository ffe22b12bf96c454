/**
 * A whole app for a test file: the embedded stack over an in-memory PGlite, or over the real
 * PostgreSQL that the integration run provides. One per file (PGlite takes seconds to start);
 * tests keep apart by making their own companies.
 */
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { TEST_SEAL_CERT_PEM, TEST_SEAL_KEY_PEM } from './seal-fixture.js';
import { inject } from 'vitest';
import { serveStandin } from '../../local/standins/standin.js';
import { createUpstashRedisRestStandin } from '../../local/standins/upstash-redis-rest.js';
import { openUpstashRedis } from '../../src/adapters/production/upstash-redis.js';
import { REDIS_WAIT_MS } from './eventually.js';
import { UpstashSendLimits } from '../../src/adapters/production/upstash-send-limits.js';
import { sendsInPeriod } from '../../src/domain/quota/sends-in-period.js';
import { embeddedServices, type EmbeddedServices } from '../../src/adapters/embedded/embedded-services.js';
import { openPgliteDatabase } from '../../src/adapters/embedded/pglite-database.js';
import { openNodePostgresDatabase } from '../../src/adapters/postgres/node-postgres-database.js';
import { createApp } from '../../src/app.js';
import { routes } from '../../functions/routes.js';
import { applicationRoute } from '../../functions/application-routes.js';
import { FileDocumentStore } from '../../src/adapters/embedded/file-document-store.js';
import { MemoryDocumentStore } from '../../src/adapters/embedded/memory-document-store.js';
import type { DocumentStore } from '../../src/ports/document-store.js';
import { ManualClock } from '../../src/ports/clock.js';

export const ADMIN_TOKEN = 'adm_test_admin_token_0123456789';
export const BASE_URL = 'https://esign.example.test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS_TOKEN = 'integration-redis-token';

export type TestStack = {
  app: ReturnType<typeof createApp>;
  /**
   * What requests left to run after their answers (the outbox relay), as Workers' waitUntil keeps
   * it; `call` adds to it and `close` waits for it, so no relay outlives the database.
   */
  afterAnswers?: Set<Promise<unknown>>;
  services: EmbeddedServices;
  clock: ManualClock;
  close(): Promise<void>;
};

export type StackOptions = {
  /** The admin API's bearer token; pass `undefined` for a service without an admin API. */
  adminToken?: string | undefined;
};

/** A fresh in-memory PGlite, from the migrated dump the fast run makes once (a plain new one elsewhere). */
export async function migratedPglite(): Promise<PGlite> {
  const template = inject('pgliteTemplate');
  if (!template) return new PGlite();
  return new PGlite({ loadDataDir: new Blob([await readFile(template)]) });
}

/**
 * Where files share a worker's modules (the fast run's `isolate: false`), they share its database
 * too, as the integration run's files share one PostgreSQL: tests keep apart by making their own
 * companies. It stays open for the worker's life.
 */
let workerDatabase: Promise<PGlite> | undefined;
async function embeddedDatabase() {
  if (process.env.TEST_SHARED_PGLITE !== 'true') return openPgliteDatabase(await migratedPglite());
  workerDatabase ??= migratedPglite();
  const database = await openPgliteDatabase(await workerDatabase);
  return { ...database, close: async () => {} };
}

/**
 * The documents' store, shared as the database is: rows another file wrote (a seed loaded twice
 * keeps the first load's templates) name documents this file must read. The integration run's
 * worker processes share one PostgreSQL, so they share a folder; keys are SHA-256s, so sharing is safe.
 */
let workerDocuments: DocumentStore | undefined;
function documentStore(databaseUrl: string | undefined): DocumentStore {
  if (databaseUrl) return new FileDocumentStore(join(tmpdir(), 'esign-integration-documents'));
  if (process.env.TEST_SHARED_PGLITE !== 'true') return new MemoryDocumentStore();
  workerDocuments ??= new MemoryDocumentStore();
  return workerDocuments;
}

export async function openStack(options: StackOptions = {}): Promise<TestStack> {
  const databaseUrl = inject('databaseUrl');
  const database = databaseUrl ? await openNodePostgresDatabase(databaseUrl, { migrate: false }) : await embeddedDatabase();
  const clock = new ManualClock(new Date());
  const services = embeddedServices({
    database,
    clock,
    config: {
      tokenSecret: new TextEncoder().encode('test-token-secret-0123456789-abcdefghij'),
      adminToken: 'adminToken' in options ? options.adminToken : ADMIN_TOKEN,
      baseUrl: BASE_URL,
      keyEnvironment: 'test',
      allowPrivateWebhookTargets: true,
      // Every finished PDF is sealed, as in production, with the suites' fixed test identity.
      seal: { keyPem: TEST_SEAL_KEY_PEM, certPem: TEST_SEAL_CERT_PEM },
    },
    // Tests name the caller's address, so that per-IP limits can be tried without interference.
    clientIp: (request) => request.headers.get('x-test-client-ip') ?? '203.0.113.1',
    // Stacks share a database: each keeps its own queue.
    queueName: `test-${crypto.randomUUID()}`,
    documents: documentStore(databaseUrl),
  });
  // The integration run also decides sends in the machine's real Redis, through the production
  // script and the Upstash REST stand-in, so every send suite proves it there too.
  const redisRest = databaseUrl ? await serveStandin(createUpstashRedisRestStandin({ redisUrl: REDIS_URL, token: REDIS_TOKEN })) : undefined;
  if (redisRest) {
    const redis = openUpstashRedis(redisRest.url, REDIS_TOKEN, REDIS_WAIT_MS);
    services.sendLimits = new UpstashSendLimits(redis, (companyId, period) => sendsInPeriod(database.db, companyId, period), REDIS_WAIT_MS);
  }
  // Every route of `npm start`: the API's and the company application's, in one app.
  const app = createApp(services, [...routes, applicationRoute]);
  const afterAnswers = new Set<Promise<unknown>>();
  return {
    app,
    services,
    clock,
    afterAnswers,
    close: async () => {
      await Promise.allSettled([...afterAnswers]);
      await services.inProcessQueue.close();
      await redisRest?.close();
      await database.close();
    },
  };
}
