/**
 * The code→status table against statements written apart from it: the codes of
 * docs/api-reference.md restated here by hand, and the error tables of docs/api-guide.md and
 * docs/admin.md, which are what integrators read. A code added, dropped or moved in src/http/error-status.ts
 * without the documentation (or the other way round) fails here.
 */
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { DomainError, type ErrorCode } from '../../src/errors.js';
import { handleError } from '../../src/http/error-handler.js';
import { errorStatus } from '../../src/http/error-status.js';
import { documentedCodes } from '../support/documented-codes.js';

describe('the code→status table', () => {
  it('holds the statuses docs/api-reference.md gives', () => {
    expect(errorStatus).toMatchObject({
      quota_exceeded: 402,
      template_not_found: 404,
      unknown_signer_role: 422,
      sender_not_found: 422,
      validation_failed: 422,
      rate_limited: 429,
      signing_links_disabled: 403,
      envelope_not_found: 404,
      unauthorized: 401,
      invalid_api_key: 401,
      insufficient_scope: 403,
      permission_denied: 403,
      not_found: 404,
      method_not_allowed: 405,
      webhook_not_found: 404,
      contact_exists: 409,
      idempotency_key_reused: 422,
      idempotency_request_in_progress: 409,
      payload_too_large: 413,
    });
  });

  it('is exactly what the guides document: every code, at its status, and nothing else', () => {
    const documented = documentedCodes();
    expect(documented.size).toBeGreaterThanOrEqual(19);
    expect(Object.fromEntries(documented)).toEqual({ ...errorStatus });
  });

  it('answers every DomainError at the documented status with the one body shape', async () => {
    const app = new Hono();
    app.onError(handleError);
    app.get('/:code', (c) => {
      throw new DomainError(c.req.param('code') as ErrorCode, 'message', { hint: 1 });
    });
    // internal_error is logged with its stack as any unexpected error is; the answer is what counts here.
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const [code, status] of documentedCodes()) {
        const answer = await app.request(`/${code}`);
        expect(answer.status, code).toBe(status);
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await answer.json()).toEqual({ error: { code, message: 'message', details: { hint: 1 } } });
      }
    } finally {
      log.mockRestore();
    }
  });

  it('turns the wait of an error into Retry-After and retry_after_seconds, after the details given', async () => {
    const app = new Hono();
    app.onError(handleError);
    app.get('/', () => {
      throw new DomainError('rate_limited', 'Too many requests.', { limit: 100 }, { retryAfterSeconds: 7 });
    });
    const answer = await app.request('/');
    expect([answer.status, answer.headers.get('retry-after')]).toEqual([429, '7']);
    expect(await answer.text()).toBe('{"error":{"code":"rate_limited","message":"Too many requests.","details":{"limit":100,"retry_after_seconds":7}}}');
  });
});
