import { ApiError } from '../../errors.js';
import type { RateDecision, RateRule } from '../../ports/rate-limiter.js';

/** Seconds until the caller may be allowed again. */
export const secondsUntilReset = (decision: RateDecision, now: Date) => Math.max(0, Math.ceil((decision.reset - now.getTime()) / 1000));

/**
 * `429 rate_limited` for a decision that said no. `retry_after_seconds` in its details becomes the
 * `Retry-After` header of the answer.
 */
export function rateLimited(rule: RateRule, decision: RateDecision, now: Date): ApiError {
  const retryAfter = secondsUntilReset(decision, now);
  return new ApiError('rate_limited', `Too many requests: at most ${rule.limit} in ${rule.windowMs / 60000} minutes. Retry after ${retryAfter} s.`, {
    limit: rule.limit,
    window_seconds: rule.windowMs / 1000,
    retry_after_seconds: retryAfter,
  });
}
