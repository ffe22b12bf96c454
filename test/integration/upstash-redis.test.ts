/**
 * The production Redis adapters on @upstash/redis and @upstash/ratelimit, over the REST stand-in
 * and the machine's real Redis: the request limits' sliding window, exact under concurrency, and a
 * Redis that stalls or refuses costing a request at most REDIS_TIMEOUT_MS.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { createUpstashRedisRestStandin } from '../../local/standins/upstash-redis-rest.js';
import { FailOpenRateLimiter } from '../../src/adapters/production/fail-open-rate-limiter.js';
import { UpstashRateLimiter } from '../../src/adapters/production/upstash-rate-limiter.js';
import { openUpstashRedis } from '../../src/adapters/production/upstash-redis.js';
import { UpstashSendLimits } from '../../src/adapters/production/upstash-send-limits.js';
import { rateRules } from '../../src/ports/rate-limiter.js';
import { quotaPeriod } from '../../src/ports/send-limits.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const token = `test-token-${crypto.randomUUID()}`;
const run = crypto.randomUUID();

describe('UpstashRateLimiter (@upstash/ratelimit) over real Redis', () => {
  let served: ServedStandin;
  let limiter: UpstashRateLimiter;

  beforeAll(async () => {
    served = await serveStandin(createUpstashRedisRestStandin({ redisUrl, token }));
    limiter = new UpstashRateLimiter(openUpstashRedis(served.url, token));
  });
  afterAll(() => served?.close());
  afterEach(() => vi.useRealTimers());

  const rule = { name: 'test', limit: 5, windowMs: 60_000 };
  /** The clock stopped mid-window: calls that straddled a window's edge would be weighed as fewer. */
  const inOneWindow = () => {
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(now / rule.windowMs) * rule.windowMs + rule.windowMs / 2);
  };

  it('allows the limit and refuses the rest, counting down what remains: 5 of 8', async () => {
    inOneWindow();
    const decisions = [];
    for (let i = 0; i < 8; i++) decisions.push(await limiter.limit(rule, `${run}:sequence`));
    expect(decisions.map((d) => d.success)).toEqual([true, true, true, true, true, false, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    expect(decisions.every((d) => d.limit === 5)).toBe(true);
    expect(new Set(decisions.map((d) => d.reset)).size).toBe(1);
    expect(decisions[0]!.reset % rule.windowMs).toBe(0);
  });

  it('allows exactly the limit of 12 concurrent calls', async () => {
    inOneWindow();
    const decisions = await Promise.all(Array.from({ length: 12 }, () => limiter.limit(rule, `${run}:parallel`)));
    expect(decisions.filter((d) => d.success)).toHaveLength(5);
  });

  it('weighs the previous window by how much of it the sliding window still covers, as npm start does', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const windowStart = Math.floor(Date.now() / rule.windowMs) * rule.windowMs - 10 * rule.windowMs;
    const id = `${run}:sliding`;
    // Five calls at the very end of a window fill it.
    vi.setSystemTime(windowStart + rule.windowMs - 1);
    for (let i = 0; i < 5; i++) expect((await limiter.limit(rule, id)).success).toBe(true);
    // 40% into the next window, 60% of those five (3) still count: 2 more are allowed.
    vi.setSystemTime(windowStart + rule.windowMs + 0.4 * rule.windowMs);
    const next = [];
    for (let i = 0; i < 3; i++) next.push(await limiter.limit(rule, id));
    expect(next.map((d) => [d.success, d.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(next[0]!.reset).toBe(windowStart + 2 * rule.windowMs);
  });

  it('keeps identifiers and rules apart', async () => {
    inOneWindow();
    for (let i = 0; i < 5; i++) await limiter.limit(rule, `${run}:full`);
    expect((await limiter.limit(rule, `${run}:full`)).success).toBe(false);
    expect((await limiter.limit(rule, `${run}:other`)).success).toBe(true);
    expect((await limiter.limit({ ...rule, name: 'roomier', limit: 6 }, `${run}:full`)).success).toBe(true);
  });

  it("refuses a wrong token with the stand-in's error, which never names the token", async () => {
    const stranger = new UpstashRateLimiter(openUpstashRedis(served.url, 'wrong-token-0123'));
    const error = await stranger.limit(rule, `${run}:stranger`).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).not.toContain('wrong-token-0123');
  });
});

describe('a Redis that does not answer', () => {
  let silent: Server;
  let url: string;
  beforeAll(async () => {
    // Takes every request and never answers: a Redis paused or a network that drops the replies.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  afterAll(async () => {
    logged.mockRestore();
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('lets a request through uncounted once the client gives up on it', async () => {
    const limiter = new FailOpenRateLimiter(new UpstashRateLimiter(openUpstashRedis(url, token, 50)), 60_000);
    await expect(limiter.limit(rateRules.other, `other:key:${run}`)).resolves.toMatchObject({ success: true, unmetered: true });
  });

  it("fails a send's admission once the client gives up on it, so the send answers 503", async () => {
    const limits = new UpstashSendLimits(openUpstashRedis(url, token, 50), async () => 0);
    const now = new Date();
    const attempt = { apiKeyId: `key_${run}`, companyId: run, period: quotaPeriod(now), takeQuota: true, allowance: 10 } as const;
    await expect(limits.admit(attempt, now)).rejects.toThrow();
  });

  it("fails a send's admission at its own deadline even when the client would wait longer", async () => {
    const limits = new UpstashSendLimits(openUpstashRedis(url, token, 60_000), async () => 0, 50);
    const now = new Date();
    const attempt = { apiKeyId: `key_${run}`, companyId: run, period: quotaPeriod(now), takeQuota: true, allowance: 10 } as const;
    await expect(limits.admit(attempt, now)).rejects.toThrow(/did not finish within 50 ms/);
  });
});
