/**
 * The Worker's own Upstash REST client and rate limiter, over the stand-in and the machine's real
 * Redis: one request for the commands of one turn, scripts by SHA-1 with EVAL the first time, each
 * command's error its own, and the same decisions as @upstash/ratelimit's sliding window, side by side.
 */
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { createUpstashRedisRestStandin } from '../../local/standins/upstash-redis-rest.js';
import { UpstashRateLimiter } from '../../src/adapters/production/upstash-rate-limiter.js';
import { UpstashError, UpstashRedisClient } from '../../src/adapters/production/upstash-redis-client.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const token = `test-token-${crypto.randomUUID()}`;
const run = crypto.randomUUID();

describe('UpstashRedisClient over the REST stand-in and real Redis', () => {
  let served: ServedStandin;
  let client: UpstashRedisClient;
  /** The bodies the client sent, one per HTTP request. */
  let sent: unknown[][];

  beforeAll(async () => {
    served = await serveStandin(createUpstashRedisRestStandin({ redisUrl, token }));
    client = new UpstashRedisClient(served.url, token);
  });
  afterAll(() => served?.close());
  afterEach(() => vi.restoreAllMocks());

  function watchRequests() {
    sent = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      sent.push(JSON.parse(String(init?.body)) as unknown[]);
      return realFetch(input, init);
    });
  }

  it('sends the commands asked for in one turn as one pipeline, each answered in order', async () => {
    watchRequests();
    const key = `test:${run}:pipe`;
    const answers = await Promise.all([
      client.command(['SET', key, '41']),
      client.command(['INCR', key]),
      client.command(['GET', key]),
      client.command(['GET', `test:${run}:missing`]),
    ]);
    expect(answers).toEqual(['OK', 42, '42', null]);
    expect(sent).toEqual([[['SET', key, '41'], ['INCR', key], ['GET', key], ['GET', `test:${run}:missing`]]]);
  });

  it("fails only the command Redis refused, with Redis's message", async () => {
    const key = `test:${run}:text`;
    const [set, incr, get] = await Promise.allSettled([client.command(['SET', key, 'not a number']), client.command(['INCR', key]), client.command(['GET', key])]);
    expect(set).toEqual({ status: 'fulfilled', value: 'OK' });
    expect(incr.status).toBe('rejected');
    expect((incr as PromiseRejectedResult).reason).toBeInstanceOf(UpstashError);
    expect(String((incr as PromiseRejectedResult).reason.message)).toMatch(/not an integer/);
    expect(get).toEqual({ status: 'fulfilled', value: 'not a number' });
  });

  it('runs a script whole the first time (NOSCRIPT), then by its SHA-1 alone', async () => {
    watchRequests();
    const script = client.script<number>(`-- ${run}\nreturn redis.call('INCR', KEYS[1]) + tonumber(ARGV[1])`);
    const key = `test:${run}:script`;
    expect(await script.exec([key], ['10'])).toBe(11);
    expect(await script.exec([key], ['10'])).toBe(12);
    const names = sent.map((body) => (body[0] as string[])[0]);
    expect(names).toEqual(['EVALSHA', 'EVAL', 'EVALSHA']);
    expect((sent[0]![0] as string[])[1]).toMatch(/^[0-9a-f]{40}$/);
  });

  it('rejects every command of a request the server refuses, naming the status but never the token', async () => {
    const stranger = new UpstashRedisClient(served.url, 'wrong-token');
    const error = await stranger.command(['GET', 'x']).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UpstashError);
    expect(String((error as Error).message)).toMatch(/401/);
    expect(String((error as Error).message)).not.toContain('wrong-token');
  });

  it('rejects when the server cannot be reached', async () => {
    const nowhere = new UpstashRedisClient('http://127.0.0.1:9', token);
    await expect(nowhere.command(['GET', 'x'])).rejects.toThrow();
  });
});

describe('UpstashRateLimiter over real Redis', () => {
  let served: ServedStandin;
  let limiter: UpstashRateLimiter;
  let reference: Ratelimit;

  beforeAll(async () => {
    served = await serveStandin(createUpstashRedisRestStandin({ redisUrl, token }));
    limiter = new UpstashRateLimiter(new UpstashRedisClient(served.url, token));
    reference = new Ratelimit({
      redis: new Redis({ url: served.url, token, enableTelemetry: false }),
      limiter: Ratelimit.slidingWindow(5, '60 s'),
      prefix: `test:${run}:reference`,
      ephemeralCache: false,
      enableTelemetry: false,
    });
  });
  afterAll(() => served?.close());

  const rule = { name: 'test', limit: 5, windowMs: 60_000 };

  it('decides as @upstash/ratelimit slidingWindow does, call for call: 5 of 8 allowed', async () => {
    const ours = [];
    const theirs = [];
    for (let i = 0; i < 8; i++) {
      ours.push(await limiter.limit(rule, `${run}:sequence`));
      theirs.push(await reference.limit(`${run}:sequence`));
    }
    expect(ours.map((d) => [d.success, d.remaining, d.limit])).toEqual(theirs.map((d) => [d.success, d.remaining, d.limit]));
    expect(ours.map((d) => d.success)).toEqual([true, true, true, true, true, false, false, false]);
    expect(ours.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    expect(new Set(ours.map((d) => d.reset)).size).toBe(1);
    expect(ours[0]!.reset % rule.windowMs).toBe(0);
  });

  it('allows exactly the limit of 12 concurrent calls', async () => {
    const decisions = await Promise.all(Array.from({ length: 12 }, () => limiter.limit(rule, `${run}:parallel`)));
    expect(decisions.filter((d) => d.success)).toHaveLength(5);
  });

  it('weighs the previous window by how much of it the sliding window still covers', async () => {
    const windowStart = Math.floor(Date.now() / rule.windowMs) * rule.windowMs - 10 * rule.windowMs;
    const id = `${run}:sliding`;
    // Five calls at the very end of a window fill it.
    for (let i = 0; i < 5; i++) expect((await limiter.limit(rule, id, windowStart + rule.windowMs - 1)).success).toBe(true);
    // 40% into the next window, 60% of those five (3) still count: 2 more are allowed.
    const later = windowStart + rule.windowMs + 0.4 * rule.windowMs;
    const next = [];
    for (let i = 0; i < 3; i++) next.push(await limiter.limit(rule, id, later));
    expect(next.map((d) => [d.success, d.remaining])).toEqual([[true, 1], [true, 0], [false, 0]]);
    expect(next[0]!.reset).toBe(windowStart + 2 * rule.windowMs);
  });

  it('keeps identifiers apart', async () => {
    for (let i = 0; i < 5; i++) await limiter.limit(rule, `${run}:full`);
    expect((await limiter.limit(rule, `${run}:full`)).success).toBe(false);
    expect((await limiter.limit(rule, `${run}:other`)).success).toBe(true);
  });
});
