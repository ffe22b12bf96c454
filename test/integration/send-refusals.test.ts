/**
 * Both send limits (in process, and the Redis scripts through the Upstash REST stand-in over the
 * machine's real Redis) count a company's refused sends per period, in the step that refused
 * them: for quota at the allowance and not before, for rate at the limit's 101st attempt, whether
 * the admission or a send answered without one was refused, and nothing for an admitted send or
 * for another company or period.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { createUpstashRedisRestStandin } from '../../local/standins/upstash-redis-rest.js';
import { MemorySendLimits } from '../../src/adapters/embedded/memory-send-limits.js';
import { openUpstashRedis } from '../../src/adapters/production/upstash-redis.js';
import { UpstashSendLimits } from '../../src/adapters/production/upstash-send-limits.js';
import { ManualClock } from '../../src/ports/clock.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import type { SendAttempt, SendLimits } from '../../src/ports/send-limits.js';
import { REDIS_WAIT_MS } from '../support/eventually.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const token = `test-token-${crypto.randomUUID()}`;
const now = new Date('2026-11-23T10:00:00.000Z');

let served: ServedStandin;
let upstash: UpstashSendLimits;
beforeAll(async () => {
  served = await serveStandin(createUpstashRedisRestStandin({ redisUrl, token }));
  upstash = new UpstashSendLimits(openUpstashRedis(served.url, token, REDIS_WAIT_MS), async () => 0, REDIS_WAIT_MS);
});
afterAll(() => served?.close());

const attempt = (overrides: Partial<SendAttempt> = {}): SendAttempt => ({
  apiKeyId: `key_${crypto.randomUUID()}`,
  companyId: crypto.randomUUID(),
  period: '2026-11',
  allowance: 2,
  ...overrides,
});

describe.each([
  ['in process', () => new MemorySendLimits(new ManualClock(now))],
  ['in Redis', () => upstash],
] as [string, () => SendLimits][])('the refused sends of a company, %s', (_, limitsOf) => {
  it('counts none for admitted sends, then one per send refused for quota, at the allowance and one past it', async () => {
    const limits = limitsOf();
    const base = attempt();
    expect((await limits.admit(base, now)).outcome).toBe('admitted');
    expect((await limits.admit(base, now)).outcome).toBe('admitted');
    expect(await limits.refusals(base.companyId, '2026-11')).toEqual({ quota: 0, rate: 0 });
    expect((await limits.admit(base, now)).outcome).toBe('exceeded');
    expect((await limits.admit(base, now)).outcome).toBe('exceeded');
    expect(await limits.refusals(base.companyId, '2026-11')).toEqual({ quota: 2, rate: 0 });
    expect(await limits.refusals(base.companyId, '2026-12')).toEqual({ quota: 0, rate: 0 });
    expect(await limits.refusals(crypto.randomUUID(), '2026-11')).toEqual({ quota: 0, rate: 0 });
  });

  it('counts a send refused by the rate limit, from the admission and from a send answered without one, not the 100 before', async () => {
    const limits = limitsOf();
    const base = attempt({ allowance: 1000 });
    for (let sent = 0; sent < rateRules.send.limit; sent++) expect((await limits.count(base.apiKeyId, now, base.companyId)).success).toBe(true);
    expect(await limits.refusals(base.companyId, '2026-11')).toEqual({ quota: 0, rate: 0 });
    expect((await limits.admit(base, now)).outcome).toBe('limited');
    expect((await limits.count(base.apiKeyId, now, base.companyId)).success).toBe(false);
    // Without a company named (a caller of before), the refusal is the limit's alone.
    expect((await limits.count(base.apiKeyId, now)).success).toBe(false);
    expect(await limits.refusals(base.companyId, '2026-11')).toEqual({ quota: 0, rate: 2 });
  });
});
