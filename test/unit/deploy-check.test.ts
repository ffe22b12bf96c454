/**
 * The checks of `npm run deploy:check`, offline: the configuration (the Worker's own check plus what
 * a deployment needs), the migration state against an embedded database, and QStash reached
 * through its stand-in or not at all.
 */
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQStashStandin } from '../../local/standins/qstash.js';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { readBucketBindings } from '../../scripts/deploy-check/bucket-bindings.js';
import {
  checkApplicationConfiguration,
  checkConfiguration,
  checkPdfConfiguration,
  checkMigrations,
  checkQStash,
  compareMigrations,
  journalMigrations,
  readAppliedMigrations,
  wranglerVars,
} from '../../scripts/deploy-check/checks.js';
import { openPgliteDatabase } from '../../src/adapters/embedded/pglite-database.js';
import { migrationsFolder } from '../../src/data/migrations.js';
import { TEST_SEAL_CERT_PEM, TEST_SEAL_KEY_PEM } from '../support/seal-fixture.js';
import { freePort } from '../embedded/server-process.js';

const vars = { BASE_URL: 'https://esign-api.acme.workers.dev', QSTASH_URL: 'https://qstash.upstash.io', EMAIL_API_URL: 'https://api.resend.com/emails' };
const secrets = {
  DATABASE_URL: 'postgresql://app:npg_s3cretpw@ep-cool-1234-pooler.eu-central-1.aws.neon.tech/neondb?sslmode=require',
  UPSTASH_REDIS_REST_URL: 'https://eu1-cool.upstash.io',
  UPSTASH_REDIS_REST_TOKEN: 'redis-token-s3cret',
  QSTASH_TOKEN: 'qstash-token-s3cret',
  QSTASH_CURRENT_SIGNING_KEY: 'sig_current',
  QSTASH_NEXT_SIGNING_KEY: 'sig_next',
  TOKEN_SECRET: 't'.repeat(48),
  ADMIN_TOKEN: 'adm_0123456789abcdef',
  EMAIL_API_KEY: 're_s3cret',
  EMAIL_FROM: 'Acme Sign <sign@acme.com>',
  WEBHOOK_SECRET_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
  SEAL_KEY_PEM: TEST_SEAL_KEY_PEM,
  SEAL_CERT_PEM: TEST_SEAL_CERT_PEM,
};

describe('wranglerVars', () => {
  it('reads the [vars] of the committed wrangler.toml, and no other table', async () => {
    const found = wranglerVars(await readFile(new URL('../../wrangler.toml', import.meta.url), 'utf8'));
    expect(found).toEqual({ QSTASH_URL: 'https://qstash.upstash.io', EMAIL_API_URL: 'https://api.resend.com/emails' });
    expect(wranglerVars('name = "x"\n[vars]\nBASE_URL = "https://a.example" # public\n[triggers]\nX = "no"')).toEqual({ BASE_URL: 'https://a.example' });
  });
});

describe('checkConfiguration', () => {
  it('passes a complete production configuration', () => {
    const result = checkConfiguration(vars, secrets);
    expect(result).toMatchObject({ ok: true, detail: expect.stringContaining('https://esign-api.acme.workers.dev') });
  });

  it.each<[string, Record<string, string>, Record<string, string | undefined>, string[]]>([
    ['missing secrets', vars, { ...secrets, TOKEN_SECRET: undefined, QSTASH_TOKEN: undefined }, ['TOKEN_SECRET is required', 'QSTASH_TOKEN is required']],
    [
      'a short TOKEN_SECRET and a malformed DATABASE_URL',
      vars,
      { ...secrets, TOKEN_SECRET: 'short', DATABASE_URL: 'mysql://x' },
      ['TOKEN_SECRET must be at least 32 characters', 'DATABASE_URL must be a postgres:// URL'],
    ],
    ['malformed webhook keys', vars, { ...secrets, WEBHOOK_SECRET_KEYS: 'k1:tooshort' }, ['WEBHOOK_SECRET_KEYS']],
    [
      'half of the Redis settings',
      vars,
      { ...secrets, UPSTASH_REDIS_REST_TOKEN: undefined },
      ['UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN go together'],
    ],
    [
      'BASE_URL given as a secret, not committed',
      { ...vars, BASE_URL: '' },
      { ...secrets, BASE_URL: 'https://esign-api.acme.workers.dev' },
      ['BASE_URL must be set under [vars]'],
    ],
    ['BASE_URL over http', { ...vars, BASE_URL: 'http://esign-api.acme.workers.dev' }, secrets, ['BASE_URL must be an https:// address']],
    ['a local BASE_URL', { ...vars, BASE_URL: 'https://127.0.0.1:8787' }, secrets, ['not a local one']],
    ['a development switch', vars, { ...secrets, ALLOW_IN_PROCESS_LIMITS: 'true' }, ['ALLOW_IN_PROCESS_LIMITS is for npm run dev only']],
  ])('reports %s, naming each variable and no secret', (_label, givenVars, givenSecrets, expected) => {
    const withoutBase = Object.fromEntries(Object.entries(givenVars).filter(([, value]) => value !== ''));
    const result = checkConfiguration(withoutBase, givenSecrets);
    expect(result.ok).toBe(false);
    for (const text of expected) expect(result.detail).toContain(text);
    for (const secret of ['npg_s3cretpw', 'redis-token-s3cret', 'qstash-token-s3cret', 're_s3cret', 't'.repeat(48)])
      expect(result.detail).not.toContain(secret);
  });
});

describe('checkPdfConfiguration', () => {
  it("passes the seal from the secrets, and names the authority of wrangler.pdf.toml's [vars]", () => {
    expect(checkPdfConfiguration({}, secrets)).toMatchObject({ ok: true, detail: expect.stringContaining('no time-stamping authority (B-B)') });
    expect(checkPdfConfiguration({ TSA_URL: 'https://tsa.example.test/tsr' }, secrets)).toMatchObject({
      ok: true,
      detail: expect.stringContaining('tsa.example.test (B-T)'),
    });
  });

  it('reports a missing or malformed seal, naming the variable and never the key', () => {
    const missing = checkPdfConfiguration({}, { ...secrets, SEAL_CERT_PEM: undefined });
    expect(missing).toMatchObject({ ok: false, detail: expect.stringContaining('SEAL_CERT_PEM is required') });
    const swapped = checkPdfConfiguration({}, { ...secrets, SEAL_KEY_PEM: TEST_SEAL_CERT_PEM });
    expect(swapped).toMatchObject({ ok: false, detail: expect.stringContaining('SEAL_KEY_PEM') });
    expect(swapped.detail).not.toMatch(/MII/);
    // Only the seal's variables are the PDF Worker's: the API Worker's secrets are not read here.
    expect(checkPdfConfiguration({}, { SEAL_KEY_PEM: TEST_SEAL_KEY_PEM, SEAL_CERT_PEM: TEST_SEAL_CERT_PEM }).ok).toBe(true);
  });
});

describe('the application Worker (wrangler.app.toml)', () => {
  it('is bound in wrangler.toml as APP, and binds the PDF Worker and the documents’ bucket', async () => {
    const api = await readFile(new URL('../../wrangler.toml', import.meta.url), 'utf8');
    expect(api).toMatch(/\[\[services\]\]\nbinding = "APP"\nservice = "esign-app"/);
    const app = await readFile(new URL('../../wrangler.app.toml', import.meta.url), 'utf8');
    expect(app).toMatch(/^name = "esign-app"$/m);
    expect(app).toMatch(/^workers_dev = false$/m);
    expect(app).toMatch(/\[\[services\]\]\nbinding = "PDF"\nservice = "esign-pdf"/);
    expect(readBucketBindings(new URL('../../wrangler.app.toml', import.meta.url).pathname)).toEqual([
      { binding: 'DOCUMENTS', bucket_name: 'esign-documents' },
    ]);
  });

  it('passes the API Worker’s secrets with the same BASE_URL, and names what is missing or differs', () => {
    expect(checkApplicationConfiguration(vars, vars, secrets)).toMatchObject({ name: 'application Worker configuration', ok: true });
    const missing = checkApplicationConfiguration({ ...vars, BASE_URL: '' }, vars, { ...secrets, TOKEN_SECRET: undefined });
    expect(missing).toMatchObject({ ok: false, detail: expect.stringContaining('TOKEN_SECRET is required') });
    expect(missing.detail).toContain('wrangler.app.toml');
    const other = checkApplicationConfiguration({ ...vars, BASE_URL: 'https://other.example.com' }, vars, secrets);
    expect(other).toMatchObject({ ok: false, detail: expect.stringContaining('BASE_URL must be the same') });
  });
});

describe('the migration state', () => {
  let migrated: PGlite;
  let empty: PGlite;
  beforeAll(async () => {
    migrated = new PGlite();
    await openPgliteDatabase(migrated);
    empty = new PGlite();
  });
  afterAll(async () => {
    await migrated.close();
    await empty.close();
  });
  const query = (db: PGlite) => async (sql: string) => (await db.query<{ created_at: unknown }>(sql)).rows;

  it("reads a migrated database as up to date with this checkout's drizzle/", async () => {
    const journal = await journalMigrations(migrationsFolder);
    expect(journal.length).toBeGreaterThan(0);
    expect(await checkMigrations(journal, () => readAppliedMigrations(query(migrated)))).toEqual({
      name: 'migrations',
      ok: true,
      detail: `all ${journal.length} migrations applied`,
    });
  });

  it('reports a database never migrated, and says to run npm run migrate', async () => {
    const result = await checkMigrations(await journalMigrations(migrationsFolder), () => readAppliedMigrations(query(empty)));
    expect(result).toMatchObject({ ok: false, detail: expect.stringContaining('never migrated') });
    expect(result.detail).toContain('npm run migrate');
  });

  it('names the migrations not applied, and a database migrated by newer code', () => {
    const journal = [
      { tag: '0000_init', when: 1 },
      { tag: '0001_more', when: 2 },
    ];
    expect(compareMigrations(journal, [1])).toMatchObject({ ok: false, detail: expect.stringContaining('1 of 2 migration(s) not applied (0001_more)') });
    expect(compareMigrations(journal, [1, 2, 3])).toMatchObject({ ok: false, detail: expect.stringContaining('migrated from newer code') });
  });

  it('reports a database it cannot read', async () => {
    const result = await checkMigrations([], async () => {
      throw new Error('Cannot reach the PostgreSQL database "neondb"');
    });
    expect(result).toMatchObject({ ok: false, detail: 'cannot read the database: Cannot reach the PostgreSQL database "neondb"' });
  });
});

describe('checkQStash', () => {
  let qstash: ServedStandin;
  beforeAll(async () => {
    qstash = await serveStandin(createQStashStandin({ token: 'right-token', signingKeys: { current: 'c', next: 'n' } }));
  });
  afterAll(() => qstash.close());

  it('accepts a QStash that answers with the token, and counts its dead letters', async () => {
    expect(await checkQStash(qstash.url, 'right-token')).toEqual({
      name: 'QStash',
      ok: true,
      detail: 'reachable, token accepted; 0 message(s) in the dead-letter queue',
    });
  });

  it('reports a refused token', async () => {
    expect(await checkQStash(qstash.url, 'wrong-token')).toMatchObject({ ok: false, detail: expect.stringContaining('refused QSTASH_TOKEN (401)') });
  });

  it('reports an unreachable QStash as unreachable', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const result = await checkQStash(closed, 'right-token');
    expect(result).toMatchObject({ name: 'QStash', ok: false });
    expect(result.detail).toMatch(new RegExp(`^unreachable at ${closed}: .*ECONNREFUSED`));
  });
});
