import { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis/cloudflare';
import type { RateDecision, RateLimiter, RateRule } from '../../ports/rate-limiter.js';

/**
 * Rate limits in Upstash Redis with @upstash/ratelimit's sliding window, shared by every isolate in
 * every location; Redis decides each count atomically, so concurrent requests cannot overshoot, and
 * a request over the limit is not counted (a client that keeps knocking is let in as the window
 * slides). One limiter per rule, made on its first use.
 *
 * The limiter's own timeout is off (it would let a request through silently) and so is its
 * in-isolate cache of blocked callers (it would keep a caller blocked to the end of the fixed
 * window, where the sliding window lets it in earlier, and differ from `npm start`'s limits):
 * FailOpenRateLimiter bounds the wait and says when Redis was not asked.
 */
export class UpstashRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(private readonly redis: Redis) {}

  async limit(rule: RateRule, identifier: string): Promise<RateDecision> {
    const { success, limit, remaining, reset } = await this.limiterFor(rule).limit(identifier);
    return { success, limit, remaining: Math.max(0, remaining), reset };
  }

  private limiterFor(rule: RateRule): Ratelimit {
    let limiter = this.limiters.get(rule.name);
    if (!limiter) {
      limiter = new Ratelimit({
        redis: this.redis,
        limiter: Ratelimit.slidingWindow(rule.limit, `${rule.windowMs} ms`),
        prefix: 'esign:rl',
        timeout: 0,
        ephemeralCache: false,
        analytics: false,
      });
      this.limiters.set(rule.name, limiter);
    }
    return limiter;
  }
}
