import { describe, expect, it } from 'vitest';
import { describeDatabaseFailure } from '../../src/adapters/postgres/database-failure.js';

/** drizzle's wrapping, as `npm run dev` met it: the cause only in the chain. */
const failedQuery = (cause: object) => new Error('Failed query: CREATE SCHEMA IF NOT EXISTS "drizzle"\nparams: ', { cause });
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('describeDatabaseFailure', () => {
  it('names a missing database and tells how to create it', () => {
    const text = describeDatabaseFailure(
      failedQuery(pgError('3D000', 'database "newcomer_dev" does not exist')),
      'postgres://postgres@127.0.0.1:5432/newcomer_dev',
    );
    expect(text).toContain('database "newcomer_dev" does not exist');
    expect(text).toContain('createdb -h 127.0.0.1 -p 5432 -U postgres newcomer_dev');
    expect(text).toContain(`psql -h 127.0.0.1 -p 5432 -U postgres -d postgres -c 'CREATE DATABASE "newcomer_dev"'`);
    expect(text).not.toContain('Failed query');
  });

  it('names a refused connection, a wrong password and an unknown host, never printing the password', () => {
    const url = 'postgres://app:s3cret-pw@db.internal:6543/esign';
    const refused = describeDatabaseFailure(failedQuery(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:6543'), { code: 'ECONNREFUSED' })), url);
    expect(refused).toMatch(/nothing accepts connections at db\.internal:6543/);
    const password = describeDatabaseFailure(failedQuery(pgError('28P01', 'password authentication failed for user "app"')), url);
    expect(password).toContain('password authentication failed for user "app". Check the user name and password in DATABASE_URL.');
    const unknown = describeDatabaseFailure(failedQuery(Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND' })), url);
    expect(unknown).toContain('the host name db.internal does not resolve');
    for (const text of [refused, password, unknown]) expect(text).not.toContain('s3cret-pw');
  });

  it('finds the cause inside an AggregateError (every address of a host refused)', () => {
    const aggregate = Object.assign(new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], ''), {
      code: 'ECONNREFUSED',
    });
    expect(describeDatabaseFailure(failedQuery(aggregate), 'postgres://postgres@localhost/esign')).toContain(
      'nothing accepts connections at localhost:5432 (connect ECONNREFUSED ::1:5432)',
    );
  });

  it('passes any other cause on with its code', () => {
    expect(describeDatabaseFailure(failedQuery(pgError('42501', 'permission denied for database esign')), 'postgres://u@h/esign')).toBe(
      'Cannot use the PostgreSQL database "esign" at h:5432: permission denied for database esign (42501).',
    );
  });
});
