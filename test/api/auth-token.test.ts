import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey, rotateApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { call, errorCode } from '../support/http.js';
import { addKeyHolder, asOperator, createTestCompany, type TestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
});
afterAll(() => stack.close());

// Each test exchanges from its own address, so the per-IP limit of one test never touches another.
let address = 0;
const exchange = (body: unknown, ip = `198.51.100.${++address}`) => call(stack, 'POST', '/v1/auth/token', { body, headers: { 'x-test-client-ip': ip } });

describe('POST /v1/auth/token', () => {
  it('exchanges a key for a one-hour bearer token that works on the API', async () => {
    const answer = await exchange({ api_key: company.owner.key });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const claims = decodeJwt(answer.body.access_token);
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(JSON.stringify(claims)).not.toContain(company.owner.key);
    const templates = await call(stack, 'GET', '/v1/templates', { token: answer.body.access_token });
    expect(templates.status).toBe(200);
  });

  it('refuses a wrong, malformed or empty key with invalid_api_key', async () => {
    for (const apiKey of [`${company.owner.key}x`, 'esk_test_nope_nope_nope_nope', 'not-a-key', company.owner.key.toUpperCase()]) {
      const answer = await exchange({ api_key: apiKey });
      expect(answer.status, apiKey).toBe(401);
      expect(errorCode(answer)).toBe('invalid_api_key');
      expect(JSON.stringify(answer.body)).not.toContain(apiKey);
    }
  });

  it('refuses a revoked key, and the old secret of a rotated key', async () => {
    const revoked = await addKeyHolder(stack, company.id);
    await revokeApiKey(asOperator(stack), { apiKeyId: revoked.id });
    expect(errorCode(await exchange({ api_key: revoked.key }))).toBe('invalid_api_key');
    const rotated = await addKeyHolder(stack, company.id);
    const { key } = await rotateApiKey(asOperator(stack), { apiKeyId: rotated.id });
    expect(errorCode(await exchange({ api_key: rotated.key }))).toBe('invalid_api_key');
    expect((await exchange({ api_key: key })).status).toBe(200);
  });

  it.each([
    ['a missing api_key', {}],
    ['a number', { api_key: 12 }],
    ['an unknown field', { api_key: 'esk_test_x', extra: true }],
    ['an array body', ['esk_test_x']],
    ['a string body', 'esk_test_x'],
  ])('refuses %s with validation_failed', async (_, body) => {
    const answer = await exchange(body);
    expect(answer.status).toBe(422);
    expect(errorCode(answer)).toBe('validation_failed');
  });

  it('allows 20 exchanges in 15 minutes per IP address, then 429 with Retry-After', async () => {
    const ip = '192.0.2.200';
    for (let i = 1; i <= 20; i++) {
      const answer = await exchange({ api_key: company.owner.key }, ip);
      expect(answer.status, `exchange ${i}`).toBe(200);
      expect(answer.headers.get('RateLimit-Limit')).toBe('20');
      expect(answer.headers.get('RateLimit-Remaining')).toBe(String(20 - i));
    }
    const refused = await exchange({ api_key: company.owner.key }, ip);
    expect(refused.status).toBe(429);
    expect(errorCode(refused)).toBe('rate_limited');
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(refused.headers.get('RateLimit-Remaining')).toBe('0');
    // Another address is not affected, and wrong keys count too (no free guessing).
    expect((await exchange({ api_key: company.owner.key }, '192.0.2.201')).status).toBe(200);
    expect((await exchange({ api_key: 'esk_test_wrong_guess_000000' }, ip)).status).toBe(429);
    // Thirty minutes later the sliding window has emptied.
    stack.clock.advance(30 * 60 * 1000);
    expect((await exchange({ api_key: company.owner.key }, ip)).status).toBe(200);
  });

  it('stops 30 parallel exchanges from one address at exactly 20', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => exchange({ api_key: company.owner.key }, '192.0.2.210')));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(20);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(10);
    for (const answer of refused) expect(errorCode(answer)).toBe('rate_limited');
  });
});
