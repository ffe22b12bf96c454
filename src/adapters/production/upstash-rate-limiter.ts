import { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import type { RateDecision, RateLimiter, RateRule } from '../../ports/rate-limiter.js';

/**
 * Rate limits in Upstash Redis, shared by every isolate in every location: a sliding window per
 * rule, counted atomically by a script in Redis, so concurrent requests cannot overshoot.
 */
export class UpstashRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(private readonly redis: Redis) {}

  async limit(rule: RateRule, identifier: string): Promise<RateDecision> {
    const { success, limit, remaining, reset } = await this.limiterFor(rule).limit(identifier);
    return { success, limit, remaining, reset };
  }

  private limiterFor(rule: RateRule): Ratelimit {
    let limiter = this.limiters.get(rule.name);
    if (!limiter) {
      limiter = new Ratelimit({
        redis: this.redis,
        limiter: Ratelimit.slidingWindow(rule.limit, `${rule.windowMs / 1000} s`),
        prefix: 'esign:rl',
        // The in-isolate cache would answer "blocked" without asking Redis; exactness matters more.
        ephemeralCache: false,
        analytics: false,
        // No telemetry, like the Redis client's; and asking whether it is switched off would read
        // the runtime's `process`, whose first use costs a Worker isolate about 6 ms.
        enableTelemetry: false,
      });
      this.limiters.set(rule.name, limiter);
    }
    return limiter;
  }
}
