import { createHash } from 'node:crypto';
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServedStandin, serveStandin } from '../../../local/standins/standin.js';
import { createUpstashRedisRestStandin } from '../../../local/standins/upstash-redis-rest.js';

// The Upstash Redis REST stand-in over the machine's real Redis, driven by the real clients.
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const token = `test-token-${crypto.randomUUID()}`;
const prefix = `standin-test:${crypto.randomUUID()}:`;
const key = (name: string) => `${prefix}${name}`;

afterEach(() => vi.useRealTimers());

describe('Upstash Redis REST stand-in', () => {
  let served: ServedStandin;
  let redis: Redis;

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${served.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    served = await serveStandin(createUpstashRedisRestStandin({ redisUrl, token }));
    redis = new Redis({ url: served.url, token, enableAutoPipelining: true });
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await served?.close();
  });

  it('runs set, get, incr and hgetall', async () => {
    expect(await redis.set(key('s'), 'hello')).toBe('OK');
    expect(await redis.get(key('s'))).toBe('hello');
    expect(await redis.get(key('missing'))).toBeNull();
    expect(await redis.incr(key('n'))).toBe(1);
    expect(await redis.incrby(key('n'), 41)).toBe(42);
    await redis.set(key('json'), { a: [1, 'two'] });
    expect(await redis.get(key('json'))).toEqual({ a: [1, 'two'] });
    await redis.hset(key('h'), { name: 'Zoë', count: 3 });
    expect(await redis.hgetall(key('h'))).toEqual({ name: 'Zoë', count: 3 });
    expect(await redis.hgetall(key('no-hash'))).toBeNull();
  });

  it('answers a pipeline in order, with errors in place', async () => {
    const results = await redis.pipeline().set(key('p'), 'v').incr(key('p-n')).get(key('p')).exec();
    expect(results).toEqual(['OK', 1, 'v']);
    const response = await post('/pipeline', [
      ['SET', key('p2'), 'x'],
      ['INCR', key('p2')],
      ['GET', key('p2')],
    ]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ result: 'OK' }, { error: 'ERR value is not an integer or out of range' }, { result: 'x' }]);
  });

  it('runs multi-exec as one transaction', async () => {
    const results = await redis.multi().set(key('m'), '1').incr(key('m')).get(key('m')).exec();
    expect(results).toEqual(['OK', 2, 2]);
    const kept = await redis.multi().set(key('m2'), 'text').incr(key('m2')).exec({ keepErrors: true });
    expect(kept[0]).toEqual({ result: 'OK', error: undefined });
    expect(kept[1]?.error).toMatch(/not an integer/);
    // A command refused while queueing aborts the whole transaction: nothing of it runs.
    const aborted = await post('/multi-exec', [['SET', key('m3'), 'x'], ['GET']]);
    expect(aborted.status).toBe(400);
    expect(((await aborted.json()) as { error: string }).error).toMatch(/EXECABORT/);
    expect(await redis.exists(key('m3'))).toBe(0);
  });

  it('base64-encodes bulk strings when asked, except a top-level OK', async () => {
    const values = ['Zoë 🚀 你好', '\u0000\u0001\u00ff binary-ish', 'OK', 'T0s=', 'PONG', ''];
    for (const [i, value] of values.entries()) {
      await redis.set(key(`b${i}`), value);
      expect(await redis.get(key(`b${i}`))).toBe(value);
    }
    const encoded = await post('/', ['GET', key('b0')], { 'Upstash-Encoding': 'base64' });
    expect(await encoded.json()).toEqual({ result: Buffer.from(values[0]!, 'utf8').toString('base64') });
    const ok = await post('/', ['SET', key('b9'), 'v'], { 'Upstash-Encoding': 'base64' });
    expect(await ok.json()).toEqual({ result: 'OK' });
    const plain = await post('/', ['GET', key('b0')]);
    expect(await plain.json()).toEqual({ result: values[0] });
  });

  it('keeps integers, nils and nested arrays', async () => {
    const result = await redis.eval(`return {7, {'a', false, {KEYS[1]}}, ARGV[1]}`, [key('k')], ['zoë']);
    expect(result).toEqual([7, ['a', null, [key('k')]], 'zoë']);
    const response = await post('/', ['EVAL', `return {1, {'x'}}`, '0'], { 'Upstash-Encoding': 'base64' });
    expect(await response.json()).toEqual({ result: [1, [Buffer.from('x').toString('base64')]] });
  });

  it('refuses a wrong or missing token with 401', async () => {
    const wrong = new Redis({ url: served.url, token: 'not-the-token', enableAutoPipelining: true });
    await expect(wrong.get(key('s'))).rejects.toThrow(/Unauthorized/);
    const none = await fetch(`${served.url}/`, { method: 'POST', body: JSON.stringify(['PING']) });
    expect(none.status).toBe(401);
  });

  it('runs scripts flagged allow-key-locking by their original SHA-1, and NOSCRIPT for unknown ones', async () => {
    const script = `#!lua flags=allow-key-locking\nreturn redis.call('INCR', KEYS[1])`;
    const original = createHash('sha1').update(script).digest('hex');
    await expect(redis.evalsha(original, [key('unloaded')], [])).rejects.toThrow(/NOSCRIPT/);
    expect(await redis.scriptLoad(script)).toBe(original);
    expect(await redis.evalsha(original, [key('sc')], [])).toBe(1);
    expect(await redis.eval(script, [key('sc')], [])).toBe(2);
    expect(await redis.scriptExists(original)).toEqual([1]);
    await expect(redis.evalsha('0'.repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
  });

  it('lets @upstash/ratelimit slidingWindow(5, "10 s") allow exactly 5 of 8 calls', async () => {
    const limiter = new Ratelimit({ redis, limiter: Ratelimit.slidingWindow(5, '10 s'), prefix: key('rl'), ephemeralCache: false });
    // The clock stopped mid-window: calls that straddled a window's edge would be weighed as fewer.
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(now / 10_000) * 10_000 + 5_000);
    const started = Date.now();
    const outcomes = [];
    for (let i = 0; i < 8; i++) outcomes.push(await limiter.limit('user-1'));
    expect(outcomes.map((o) => o.success)).toEqual([true, true, true, true, true, false, false, false]);
    expect(outcomes.map((o) => o.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    for (const outcome of outcomes) {
      expect(outcome.limit).toBe(5);
      expect(outcome.reset).toBeGreaterThan(started);
      expect(outcome.reset).toBeLessThanOrEqual(Date.now() + 10_000);
    }
    // Concurrent calls are counted exactly too: the script runs atomically in Redis.
    const parallel = await Promise.all(Array.from({ length: 8 }, () => limiter.limit('user-2')));
    expect(parallel.filter((o) => o.success)).toHaveLength(5);
  });
});
