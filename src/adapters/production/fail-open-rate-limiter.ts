import { withinDeadline } from '../../lib/deadline.js';
import { logError } from '../../lib/log-error.js';
import type { RateDecision, RateLimiter, RateRule } from '../../ports/rate-limiter.js';
import { REDIS_TIMEOUT_MS } from './upstash-redis.js';

/**
 * Request-rate limits fail open: when Redis does not answer within a second, or fails, the request
 * goes on uncounted (its answer then carries no RateLimit headers) rather than the whole API going
 * down with Redis. What the limits guard stays guarded without them: keys and signing links are too
 * long to guess, and every call still checks its token against the database. The send's own
 * admission (its limit, Idempotency-Key and quota, one script) does not go through here: it fails
 * closed, with 503, so no send is ever taken beyond the plan.
 */
export class FailOpenRateLimiter implements RateLimiter {
  /** An outage would otherwise log every request: one line per rule every 10 seconds says enough. */
  private readonly lastLogged = new Map<string, number>();

  constructor(
    private readonly inner: RateLimiter,
    private readonly timeoutMs = REDIS_TIMEOUT_MS,
  ) {}

  async limit(rule: RateRule, identifier: string): Promise<RateDecision> {
    try {
      return await withinDeadline(this.inner.limit(rule, identifier), this.timeoutMs, `Redis's count for "${rule.name}"`);
    } catch (err) {
      const now = Date.now();
      if (now - (this.lastLogged.get(rule.name) ?? 0) >= 10_000) {
        this.lastLogged.set(rule.name, now);
        logError(`rate limit "${rule.name}" not counted: Redis failed; requests go on uncounted`, err);
      }
      return { success: true, limit: rule.limit, remaining: rule.limit, reset: 0, unmetered: true };
    }
  }
}
