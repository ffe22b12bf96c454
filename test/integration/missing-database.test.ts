/**
 * `npm run dev` and `npm run migrate` open DATABASE_URL through openNodePostgresDatabase: a database
 * that the server does not have is reported with its cause and the command that creates it.
 */
import { describe, expect, it } from 'vitest';
import { openNodePostgresDatabase } from '../../src/adapters/postgres/node-postgres-database.js';

const server = new URL(process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

describe('a DATABASE_URL naming a database the server lacks', () => {
  it('fails with the cause and the createdb line, not only the failed query', async () => {
    const missing = new URL(server);
    missing.pathname = `/missing_${crypto.randomUUID().slice(0, 8)}`;
    const name = missing.pathname.slice(1);
    const failure = await openNodePostgresDatabase(missing.toString()).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(failure?.message).toContain(`database "${name}" does not exist`);
    expect(failure?.message).toContain(`createdb -h ${missing.hostname}`);
    expect(failure?.message).not.toContain('Failed query');
  });
});
