import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorCode } from '../support/http.js';
import { addKeyHolder, createTestCompany, type TestCompany } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
});
afterAll(() => stack.close());

describe('1000 other requests in 15 minutes per API key', () => {
  it('allows the 1000th request, refuses the 1001st with 429 and Retry-After, per key', async () => {
    const holder = await addKeyHolder(stack, company.id);
    for (let i = 1; i <= 1000; i++) {
      const answer = await call(stack, 'GET', '/v1/contacts?per_page=1', { token: holder.token });
      if (answer.status !== 200) throw new Error(`request ${i} got ${answer.status}`);
      if (i === 1000) expect(answer.headers.get('RateLimit-Remaining')).toBe('0');
    }
    const refused = await call(stack, 'GET', '/v1/templates', { token: holder.token });
    expect(refused.status).toBe(429);
    expect(errorCode(refused)).toBe('rate_limited');
    expect(refused.headers.get('RateLimit-Limit')).toBe('1000');
    expect(refused.headers.get('RateLimit-Remaining')).toBe('0');
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another key of the same company has its own allowance.
    expect((await call(stack, 'GET', '/v1/templates', { token: company.owner.token })).status).toBe(200);
    stack.clock.advance(30 * 60 * 1000);
    expect((await call(stack, 'GET', '/v1/templates', { token: holder.token })).status).toBe(200);
  }, 120_000);

  it('puts the RateLimit headers on every counted answer, errors included', async () => {
    // 100 s before the end of a 15-minute window (windows start on multiples of 15 minutes), later
    // than any token of the file so far was issued.
    const windowMs = 15 * 60 * 1000;
    stack.clock.set(new Date((Math.floor(stack.clock.now().getTime() / windowMs) + 2) * windowMs - 100_000));
    const holder = await addKeyHolder(stack, company.id);
    const notFound = await call(stack, 'GET', `/v1/templates/${crypto.randomUUID()}`, { token: holder.token });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('RateLimit-Limit')).toBe('1000');
    expect(notFound.headers.get('RateLimit-Remaining')).toBe('999');
    expect(notFound.headers.get('RateLimit-Reset')).toBe('100');
    stack.clock.advance(1000);
    const invalid = await call(stack, 'POST', '/v1/contacts', { token: holder.token, body: {} });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('RateLimit-Remaining')).toBe('998');
    expect(invalid.headers.get('RateLimit-Reset')).toBe('99');
  });

  it('does not count requests that carry no valid token', async () => {
    const answer = await call(stack, 'GET', '/v1/templates', { token: 'nope' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('RateLimit-Limit')).toBeNull();
  });
});
