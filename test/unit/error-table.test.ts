/**
 * The code→status table against statements written apart from it: the codes of
 * docs/api-reference.md restated here by hand, and the README's error tables, which are what
 * integrators read. A code added, dropped or moved in src/errors.ts without the documentation
 * (or the other way round) fails here.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, type ErrorCode, errorStatus } from '../../src/errors.js';
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

  it('is exactly what the README documents: every code, at its status, and nothing else', () => {
    const documented = documentedCodes();
    expect(documented.size).toBeGreaterThanOrEqual(19);
    expect(Object.fromEntries(documented)).toEqual({ ...errorStatus });
  });

  it('gives every ApiError the documented status and the one body shape', () => {
    for (const [code, status] of documentedCodes()) {
      const error = new ApiError(code as ErrorCode, 'message', { hint: 1 });
      expect(error.status, code).toBe(status);
      expect(error.toBody()).toEqual({ error: { code, message: 'message', details: { hint: 1 } } });
    }
  });
});
