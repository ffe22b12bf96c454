import type { RateDecision, RateLimiter, RateRule } from '../../ports/rate-limiter.js';
import { COUNT_REQUEST, WEIGHTED_COUNT, windowKeys } from './sliding-window-lua.js';
import type { RedisScript, UpstashRedisClient } from './upstash-redis-client.js';

// A request over the limit is refused without being counted, so a client that keeps knocking
// while limited is let in again as the window slides.
const LIMIT = `${WEIGHTED_COUNT}
if weighted >= limit then return {0, weighted} end
${COUNT_REQUEST}
return {1, weighted}`;

/**
 * Rate limits in Upstash Redis, shared by every isolate in every location: a sliding window per
 * rule and identifier, decided atomically by one script in Redis, so concurrent requests cannot
 * overshoot.
 */
export class UpstashRateLimiter implements RateLimiter {
  private readonly script: RedisScript<[allowed: 0 | 1, counted: number]>;

  constructor(redis: UpstashRedisClient) {
    this.script = redis.script(LIMIT);
  }

  async limit(rule: RateRule, identifier: string, now = Date.now()): Promise<RateDecision> {
    const [allowed, counted] = await this.script.exec(windowKeys(`esign:rl:${identifier}`, rule.windowMs, now), [String(rule.limit), String(rule.windowMs), String(now)]);
    const reset = (Math.floor(now / rule.windowMs) + 1) * rule.windowMs;
    return { success: allowed === 1, limit: rule.limit, remaining: Math.max(0, rule.limit - counted), reset };
  }
}
