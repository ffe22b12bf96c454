import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logError } from '../../src/lib/log-error.js';

describe('logError', () => {
  afterEach(() => vi.restoreAllMocks());

  it('logs a failed query by its driver cause, never its parameters', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const cause = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    logError(
      'send failed',
      new DrizzleQueryError('insert into webhook_subscriptions values ($1, $2)', ['https://hooks.example.test', 'whsec_c2VjcmV0'], cause),
    );
    const line = logged.mock.calls.flat().join(' ');
    expect(line).toContain('23505');
    expect(line).not.toContain('whsec_');
    expect(line).not.toContain('hooks.example.test');
  });

  it('logs other errors with their name, message and a few frames', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    logError('unhandled error', new TypeError('boom'));
    expect(logged.mock.calls.flat().join(' ')).toMatch(/unhandled error TypeError: boom\n\s+at /);
  });
});
