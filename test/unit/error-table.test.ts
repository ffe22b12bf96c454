import { describe, expect, it } from 'vitest';
import { ApiError, errorStatus } from '../../src/errors.js';

describe('the code→status table', () => {
  it('holds the statuses of the API reference and the error table of the README', () => {
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
      payload_too_large: 413,
    });
  });

  it('gives every ApiError its status and the one body shape', () => {
    for (const code of Object.keys(errorStatus) as (keyof typeof errorStatus)[]) {
      const error = new ApiError(code, 'message');
      expect(error.status).toBe(errorStatus[code]);
      expect(error.toBody()).toEqual({ error: { code, message: 'message', details: {} } });
    }
  });
});
