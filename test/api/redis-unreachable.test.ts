/**
 * Redis unreachable: the request-rate limits fail open (after a second at most, the request goes
 * on uncounted and its answer carries no RateLimit headers), while the send's admission — its
 * limit, Idempotency-Key and quota, one step — fails closed with 503 and takes nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FailOpenRateLimiter } from '../../src/adapters/production/fail-open-rate-limiter.js';
import { eq } from 'drizzle-orm';
import { envelopes } from '../../src/data/schema.js';
import { rateRules, type RateLimiter } from '../../src/ports/rate-limiter.js';
import { quotaPeriod } from '../../src/ports/send-limits.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { call, errorCode } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
});
afterAll(() => stack.close());

const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
afterEach(() => logged.mockClear());

const down: RateLimiter = { limit: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) };
const hanging: RateLimiter = { limit: () => new Promise(() => {}) };

describe('the request-rate limits when Redis fails', () => {
  it('let a request through uncounted when Redis refuses, without RateLimit headers, and say so in the log', async () => {
    const working = stack.services.rateLimiter;
    stack.services.rateLimiter = new FailOpenRateLimiter(down);
    try {
      const listed = await call(stack, 'GET', '/v1/contacts', { token: company.owner.token });
      expect(listed.status).toBe(200);
      expect(listed.headers.get('RateLimit-Limit')).toBeNull();
      const exchanged = await call(stack, 'POST', '/v1/auth/token', { body: { api_key: company.owner.key }, headers: { 'x-test-client-ip': '192.0.2.77' } });
      expect(exchanged.status).toBe(200);
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('rate limit "other" not counted'), expect.anything());
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('rate limit "token" not counted'), expect.anything());
      // An outage is said once in a while, not on every request.
      await call(stack, 'GET', '/v1/contacts', { token: company.owner.token });
      expect(logged.mock.calls.filter(([line]) => String(line).includes('"other"'))).toHaveLength(1);
    } finally {
      stack.services.rateLimiter = working;
    }
    // Redis back: counted again, with its headers.
    expect((await call(stack, 'GET', '/v1/contacts', { token: company.owner.token })).headers.get('RateLimit-Limit')).toBe('1000');
  });

  // No clock is read: that the request goes on, uncounted, is the outcome; the test's own timeout bounds the wait.
  it('lets a request through uncounted once its timeout passes for a Redis that does not answer', async () => {
    const limiter = new FailOpenRateLimiter(hanging, 50);
    await expect(limiter.limit(rateRules.other, 'other:key:x')).resolves.toMatchObject({ success: true, unmetered: true });
  });

  it('pass a working Redis’s decision through unchanged, refusals included', async () => {
    const refusing: RateLimiter = { limit: async () => ({ success: false, limit: 20, remaining: 0, reset: 1234 }) };
    await expect(new FailOpenRateLimiter(refusing).limit(rateRules.tokenExchange, 'token:1.2.3.4')).resolves.toEqual({
      success: false,
      limit: 20,
      remaining: 0,
      reset: 1234,
    });
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('the send when Redis fails', () => {
  it('fails closed: 503 service_unavailable, no envelope, nothing taken', async () => {
    const template = await createTestTemplate(stack, company.id);
    const envelopesOf = async () => (await stack.services.database.db.select().from(envelopes).where(eq(envelopes.companyId, company.id))).length;
    const [envelopesBefore, quotaBefore] = [await envelopesOf(), await stack.services.sendLimits.used(company.id, quotaPeriod(stack.clock.now()))];
    const working = stack.services.sendLimits;
    stack.services.sendLimits = new Proxy(working, {
      get: (target, name) => (name === 'admit' ? () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) : Reflect.get(target, name)),
    });
    try {
      const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
        token: company.owner.token,
        body: {
          template_id: template.id,
          recipients: [
            { role: 'Client', name: 'C', email: 'c@example.test' },
            { role: 'Witness', name: 'W', email: 'w@example.test' },
          ],
        },
      });
      expect(answer.status).toBe(503);
      expect(errorCode(answer)).toBe('service_unavailable');
    } finally {
      stack.services.sendLimits = working;
    }
    expect(await envelopesOf()).toBe(envelopesBefore);
    expect(await stack.services.sendLimits.used(company.id, quotaPeriod(stack.clock.now()))).toBe(quotaBefore);
  });
});
