/**
 * The production send limits (one Lua script through the Upstash REST stand-in) over the machine's
 * real Redis: exact under concurrency, limit before claim before quota, and a quota rebuilt from
 * the database's count when its key is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { createUpstashRedisRestStandin } from '../../local/standins/upstash-redis-rest.js';
import { openUpstashRedis } from '../../src/adapters/production/upstash-redis.js';
import { REDIS_WAIT_MS } from '../support/eventually.js';
import { UpstashSendLimits } from '../../src/adapters/production/upstash-send-limits.js';
import type { SendAttempt } from '../../src/ports/send-limits.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const token = `test-token-${crypto.randomUUID()}`;
const now = new Date('2026-11-23T10:00:00.000Z');

describe('UpstashSendLimits over real Redis', () => {
  let served: ServedStandin;
  let redis: ReturnType<typeof openUpstashRedis>;
  const baselines = new Map<string, number>();
  let limits: UpstashSendLimits;

  beforeAll(async () => {
    served = await serveStandin(createUpstashRedisRestStandin({ redisUrl, token }));
    redis = openUpstashRedis(served.url, token, REDIS_WAIT_MS);
    limits = new UpstashSendLimits(redis, async (companyId) => baselines.get(companyId) ?? 0, REDIS_WAIT_MS);
  });
  afterAll(() => served?.close());

  const attempt = (overrides: Partial<SendAttempt> = {}): SendAttempt => ({
    apiKeyId: `key_${crypto.randomUUID()}`,
    companyId: crypto.randomUUID(),
    period: '2026-11',
    allowance: 10,
    ...overrides,
  });

  it('gives exactly min(N, Q) quota units to 50 parallel sends with 10 left', async () => {
    const companyId = crypto.randomUUID();
    const results = await Promise.all(Array.from({ length: 50 }, () => limits.admit(attempt({ companyId, apiKeyId: `key_${crypto.randomUUID()}` }), now)));
    expect(results.filter((result) => result.outcome === 'admitted')).toHaveLength(10);
    expect(results.filter((result) => result.outcome === 'exceeded')).toHaveLength(40);
    expect(await limits.used(companyId, '2026-11')).toBe(10);
  });

  it('admits exactly 100 of 120 parallel sends of one key, and takes quota for none it limited', async () => {
    const base = attempt({ allowance: 1000 });
    const results = await Promise.all(Array.from({ length: 120 }, () => limits.admit(base, now)));
    expect(results.filter((result) => result.outcome === 'admitted')).toHaveLength(100);
    expect(results.filter((result) => result.outcome === 'limited')).toHaveLength(20);
    expect(results.filter((result) => !result.rate.success)).toHaveLength(20);
    expect(await limits.used(base.companyId, '2026-11')).toBe(100);
  });

  it('counts sends answered without an admission against the limit, exactly at 100 and one past it', async () => {
    const base = attempt();
    const counted = await Promise.all(Array.from({ length: 100 }, () => limits.count(base.apiKeyId, now)));
    expect(counted.every((rate) => rate.success)).toBe(true);
    expect(Math.min(...counted.map((rate) => rate.remaining))).toBe(0);
    const past = await limits.count(base.apiKeyId, now);
    expect([past.success, past.remaining]).toEqual([false, 0]);
    expect(await limits.admit(base, now)).toMatchObject({ outcome: 'limited', rate: { success: false, remaining: 0 } });
    expect(await limits.used(base.companyId, '2026-11')).toBe(0);
  });

  it('lets one of two twins claim a key; the other learns the hash it is held for and takes no quota', async () => {
    const base = attempt();
    const claim = { key: 'order-1', requestHash: 'hash-a' };
    const [a, b] = await Promise.all([limits.admit({ ...base, claim }, now), limits.admit({ ...base, claim: { ...claim, requestHash: 'hash-b' } }, now)]);
    const outcomes = [a, b].map((result) => (result.outcome === 'held' ? `held for ${result.heldFor}` : result.outcome)).sort();
    expect(outcomes[0]).toBe('admitted');
    expect(outcomes[1]).toMatch(/^held for hash-[ab]$/);
    expect(await limits.used(base.companyId, '2026-11')).toBe(1);
    await limits.release({ ...base, claimKey: 'order-1' });
    expect(await limits.used(base.companyId, '2026-11')).toBe(0);
    expect((await limits.admit({ ...base, claim }, now)).outcome).toBe('admitted');
  });

  it('holds no claim for a send refused for quota, at the allowance and one past it', async () => {
    const base = attempt({ allowance: 1 });
    const claim = { key: 'order-2', requestHash: 'h' };
    expect(await limits.admit(base, now)).toMatchObject({ outcome: 'admitted', used: 1 });
    expect(await limits.admit({ ...base, claim }, now)).toMatchObject({ outcome: 'exceeded', used: 1, allowance: 1 });
    expect((await limits.admit({ ...base, allowance: 2, claim }, now)).outcome).toBe('admitted');
  });

  it('rebuilds a missing quota key from the database count', async () => {
    const base = attempt({ allowance: 5 });
    baselines.set(base.companyId, 4);
    expect(await limits.admit(base, now)).toMatchObject({ outcome: 'admitted', used: 5, rate: { remaining: 99 } });
    expect((await limits.admit(base, now)).outcome).toBe('exceeded');
    expect(await limits.used(base.companyId, '2026-11')).toBe(5);
  });

  it('holds the allowance each send brings: lowered at once, raised at once', async () => {
    const base = attempt({ allowance: 3 });
    for (let i = 0; i < 2; i++) expect((await limits.admit(base, now)).outcome).toBe('admitted');
    expect(await limits.admit({ ...base, allowance: 2 }, now)).toMatchObject({ outcome: 'exceeded', used: 2, allowance: 2 });
    expect(await limits.admit({ ...base, allowance: 3 }, now)).toMatchObject({ outcome: 'admitted', used: 3 });
  });
});
