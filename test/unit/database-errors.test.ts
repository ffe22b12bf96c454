/**
 * Which database errors are the caller's: a value Postgres refused (SQLSTATE class 22) is a
 * `422 validation_failed`, from the error handler and from a send alike; anything else that fails
 * stays ours (500, or 503 for a send).
 */
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { isDataException, isUniqueViolation } from '../../src/data/errors.js';
import { unavailable } from '../../src/domain/shared/unavailable.js';
import { DomainError } from '../../src/errors.js';
import { errorStatus } from '../../src/http/error-status.js';
import { handleError } from '../../src/http/error-handler.js';

/** A driver's error as PGlite, node-postgres and Neon all shape it: the SQLSTATE in `code`. */
const driverError = (code: string) => Object.assign(new Error(`refused (${code})`), { code });
/** drizzle's wrapper: the query and its parameters, with the driver's error as the cause. */
const drizzleError = (cause: unknown) => Object.assign(new Error('Failed query: insert ...', { cause }), { query: 'insert ...', params: [] });

describe('isDataException', () => {
  it('is true for every SQLSTATE of class 22, on the error or its causes', () => {
    for (const code of ['22021', '22P05', '22003', '22P02', '22001', '22007', '22000']) {
      expect(isDataException(driverError(code)), code).toBe(true);
      expect(isDataException(drizzleError(driverError(code))), `wrapped ${code}`).toBe(true);
      expect(isDataException(drizzleError(drizzleError(driverError(code)))), `wrapped twice ${code}`).toBe(true);
    }
  });

  it('is false for other classes, for codes that are not SQLSTATEs, and for anything else', () => {
    for (const code of ['23505', '23502', '40001', '53300', '08006', '57P01', '42P01', '2200', '220031', 'ECONNRESET', 'EPIPE']) {
      expect(isDataException(drizzleError(driverError(code))), code).toBe(false);
    }
    for (const value of [undefined, null, '22021', 22021, new Error('22021'), { code: 22021 }, { cause: 'x' }]) {
      expect(isDataException(value), String(value)).toBe(false);
    }
  });

  it('leaves unique violations to isUniqueViolation', () => {
    expect(isUniqueViolation(drizzleError(driverError('23505')))).toBe(true);
    expect(isUniqueViolation(drizzleError(driverError('22021')))).toBe(false);
    expect(isDataException(drizzleError(driverError('23505')))).toBe(false);
  });
});

describe('answers to a database error', () => {
  const quiet = () => vi.spyOn(console, 'error').mockImplementation(() => {});

  it('a send: 422 validation_failed for a refused value, 503 for anything else', () => {
    const log = quiet();
    try {
      const refused = unavailable(drizzleError(driverError('22P05')));
      expect([errorStatus[refused.code], refused.code]).toEqual([422, 'validation_failed']);
      const failed = unavailable(drizzleError(Object.assign(new Error('connection lost'), { code: '08006' })));
      expect([errorStatus[failed.code], failed.code]).toEqual([503, 'service_unavailable']);
      const passed = new DomainError('quota_exceeded', 'No requests left.');
      expect(unavailable(passed)).toBe(passed);
    } finally {
      log.mockRestore();
    }
  });

  it('any other route: 422 validation_failed for a refused value, 500 for anything else', async () => {
    const log = quiet();
    try {
      const app = new Hono();
      app.onError(handleError);
      app.get('/refused', () => {
        throw drizzleError(driverError('22021'));
      });
      app.get('/broken', () => {
        throw drizzleError(driverError('42P01'));
      });
      const refused = await app.request('/refused');
      expect(refused.status).toBe(422);
      expect(await refused.json()).toEqual({
        error: { code: 'validation_failed', message: 'The request is not valid.', details: { issues: [{ path: '', message: expect.any(String) }] } },
      });
      const broken = await app.request('/broken');
      expect(broken.status).toBe(500);
      expect(((await broken.json()) as { error: { code: string } }).error.code).toBe('internal_error');
    } finally {
      log.mockRestore();
    }
  });
});
