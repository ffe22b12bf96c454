/**
 * The production send limits over the machine's real Redis (through the Upstash REST stand-in) give
 * an admission back exactly once, by its token: asked twice or ten times at once, retried after a
 * reply that was lost, and not at all while Redis refuses every attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { createUpstashRedisRestStandin } from '../../local/standins/upstash-redis-rest.js';
import { openUpstashRedis } from '../../src/adapters/production/upstash-redis.js';
import { UpstashSendLimits } from '../../src/adapters/production/upstash-send-limits.js';
import type { SendAttempt } from '../../src/ports/send-limits.js';
import { REDIS_WAIT_MS } from '../support/eventually.js';
import { releaseNow, sendReleaseCases } from '../support/send-release-cases.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const token = `test-token-${crypto.randomUUID()}`;
type Redis = ReturnType<typeof openUpstashRedis>;
type Script = { exec(keys: string[], args: string[]): Promise<unknown> };

/**
 * Redis whose release script fails its first `times` calls: `before` it reaches Redis (Redis away),
 * or `after` it ran there (the reply lost on its way back, as a timeout loses it).
 */
function failingReleases(redis: Redis, times: number, when: 'before' | 'after'): Redis {
  let failed = 0;
  const createScript = (text: string): Script => {
    const script = redis.createScript<unknown>(text);
    if (!text.includes("'DECR'")) return script;
    return {
      async exec(keys, args) {
        if (when === 'before' && failed < times) throw new Error(`Redis refused the release (${++failed})`);
        const reply = await script.exec(keys, args);
        if (when === 'after' && failed < times) throw new Error(`The release's reply was lost (${++failed})`);
        return reply;
      },
    };
  };
  return new Proxy(redis, { get: (target, name, receiver) => (name === 'createScript' ? createScript : Reflect.get(target, name, receiver)) });
}

describe('UpstashSendLimits over real Redis: a release by token', () => {
  let served: ServedStandin;
  let redis: Redis;
  let limits: UpstashSendLimits;

  beforeAll(async () => {
    served = await serveStandin(createUpstashRedisRestStandin({ redisUrl, token }));
    redis = openUpstashRedis(served.url, token, REDIS_WAIT_MS);
    limits = new UpstashSendLimits(redis, async () => 0, REDIS_WAIT_MS);
  });
  afterAll(() => served?.close());

  sendReleaseCases(() => limits);

  const attempt = (): SendAttempt => ({
    apiKeyId: `key_${crypto.randomUUID()}`,
    companyId: crypto.randomUUID(),
    period: '2026-11',
    allowance: 10,
    claim: { key: 'order-1', requestHash: 'hash-a' },
  });
  const admit = async (on: UpstashSendLimits, asked: SendAttempt) => {
    const admission = await on.admit(asked, releaseNow);
    if (admission.outcome !== 'admitted') throw new Error(`not admitted: ${admission.outcome}`);
    return { companyId: asked.companyId, apiKeyId: asked.apiKeyId, period: asked.period, claimKey: 'order-1', token: admission.release };
  };

  it('gives back one unit and the claim when the first reply was lost and the release was asked again', async () => {
    const lossy = new UpstashSendLimits(failingReleases(redis, 1, 'after'), async () => 0, REDIS_WAIT_MS);
    const asked = attempt();
    await admit(lossy, { ...asked, claim: { key: 'order-0', requestHash: 'h' } });
    const release = await admit(lossy, asked);
    await lossy.release(release);
    expect(await limits.used(asked.companyId, '2026-11')).toBe(1);
    expect((await limits.admit(asked, releaseNow)).outcome).toBe('admitted');
  });

  it('gives back the unit on a later attempt when the first ones were refused', async () => {
    const flaky = new UpstashSendLimits(failingReleases(redis, 2, 'before'), async () => 0, REDIS_WAIT_MS);
    const asked = attempt();
    const release = await admit(flaky, asked);
    expect(await flaky.release(release)).toBe(true);
    expect(await limits.used(asked.companyId, '2026-11')).toBe(0);
  });

  it('keeps the unit counted, and fails, when Redis refuses every attempt', async () => {
    const away = new UpstashSendLimits(failingReleases(redis, 10, 'before'), async () => 0, REDIS_WAIT_MS);
    const asked = attempt();
    const release = await admit(away, asked);
    await expect(away.release(release)).rejects.toThrow(/Redis refused the release \(3\)/);
    expect(await limits.used(asked.companyId, '2026-11')).toBe(1);
    // Once Redis answers again, the same release still gives it back, once.
    expect(await limits.release(release)).toBe(true);
    expect(await limits.release(release)).toBe(false);
    expect(await limits.used(asked.companyId, '2026-11')).toBe(0);
  });
});
