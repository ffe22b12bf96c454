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
    takeQuota: true,
    ...overrides,
  });

  it('gives exactly min(N, Q) quota units to 50 parallel sends with 10 left', async () => {
    const companyId = crypto.randomUUID();
    const results = await Promise.all(Array.from({ length: 50 }, () => limits.admit(attempt({ companyId, apiKeyId: `key_${crypto.randomUUID()}` }), now)));
    expect(results.filter((result) => result.quota === 'taken')).toHaveLength(10);
    expect(results.filter((result) => result.quota === 'exceeded')).toHaveLength(40);
    expect(await limits.used(companyId, '2026-11')).toBe(10);
  });

  it('admits exactly 100 of 120 parallel sends of one key, and takes quota for none it limited', async () => {
    const base = attempt({ allowance: 1000 });
    const results = await Promise.all(Array.from({ length: 120 }, () => limits.admit(base, now)));
    expect(results.filter((result) => result.rate.success)).toHaveLength(100);
    expect(results.filter((result) => !result.rate.success).every((result) => result.quota === 'not_asked')).toBe(true);
    expect(await limits.used(base.companyId, '2026-11')).toBe(100);
  });

  it('counts refused sends (no quota asked) against the limit', async () => {
    const base = attempt({ takeQuota: false });
    for (let i = 0; i < 100; i++) expect((await limits.admit(base, now)).rate.success).toBe(true);
    const limited = await limits.admit({ ...base, takeQuota: true }, now);
    expect([limited.rate.success, limited.rate.remaining, limited.quota]).toEqual([false, 0, 'not_asked']);
    expect(await limits.used(base.companyId, '2026-11')).toBe(0);
  });

  it('lets one of two twins claim a key; the other learns the hash it is held for and takes no quota', async () => {
    const base = attempt();
    const claim = { key: 'order-1', requestHash: 'hash-a' };
    const [a, b] = await Promise.all([limits.admit({ ...base, claim }, now), limits.admit({ ...base, claim: { ...claim, requestHash: 'hash-b' } }, now)]);
    const claims = [a.claim, b.claim];
    expect(claims).toContainEqual({ won: true });
    expect(claims.filter((c) => c && !c.won)).toHaveLength(1);
    expect(await limits.used(base.companyId, '2026-11')).toBe(1);
    await limits.release({ ...base, quota: true, claimKey: 'order-1' });
    expect(await limits.used(base.companyId, '2026-11')).toBe(0);
    expect((await limits.admit({ ...base, claim }, now)).claim).toEqual({ won: true });
  });

  it('frees the claim of a send refused for quota', async () => {
    const base = attempt({ allowance: 0 });
    const claim = { key: 'order-2', requestHash: 'h' };
    expect((await limits.admit({ ...base, claim }, now)).quota).toBe('exceeded');
    expect((await limits.admit({ ...base, claim }, now)).claim).toEqual({ won: true });
  });

  it('rebuilds a missing quota key from the database count', async () => {
    const base = attempt({ allowance: 5 });
    baselines.set(base.companyId, 4);
    expect((await limits.admit(base, now)).quota).toBe('taken');
    expect((await limits.admit(base, now)).quota).toBe('exceeded');
    expect(await limits.used(base.companyId, '2026-11')).toBe(5);
  });

  it('takes a unit against the allowance remembered from the last admission that gave one', async () => {
    const base = attempt({ allowance: 'remembered' });
    const first = await limits.admit(base, now);
    expect(first).toMatchObject({ quota: 'allowance_unknown', rate: { success: true, remaining: 99 } });
    expect(await limits.used(base.companyId, '2026-11')).toBe(0);
    expect(await limits.admit({ ...base, allowance: 2, countAttempt: false }, now)).toMatchObject({ quota: 'taken', used: 1, allowance: 2, rate: { remaining: 99 } });
    expect(await limits.admit(base, now)).toMatchObject({ quota: 'taken', used: 2, allowance: 2, rate: { remaining: 98 } });
    expect(await limits.admit(base, now)).toMatchObject({ quota: 'exceeded', used: 2, allowance: 2, rate: { remaining: 97 } });
  });

  it('counts no attempt for the second step of one send, and refuses none by the rate limit there', async () => {
    const base = attempt({ allowance: 1000, takeQuota: false });
    for (let i = 0; i < 100; i++) expect((await limits.admit(base, now)).rate.success).toBe(true);
    expect((await limits.admit(base, now)).rate.success).toBe(false);
    const second = await limits.admit({ ...base, takeQuota: true, countAttempt: false }, now);
    expect(second).toMatchObject({ quota: 'taken', rate: { success: true } });
  });
});
