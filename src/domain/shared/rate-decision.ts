import { DomainError } from '../../errors.js';
import type { RateDecision, RateRule } from '../../ports/rate-limiter.js';

/** Seconds until the caller may be allowed again. */
export const secondsUntilReset = (decision: RateDecision, now: Date) => Math.max(0, Math.ceil((decision.reset - now.getTime()) / 1000));

/**
 * `429 rate_limited` for a decision that said no. Its details tell the wait to the client; the
 * edge turns `retryAfterSeconds` into the answer's `Retry-After` header.
 */
export function rateLimited(rule: RateRule, decision: RateDecision, now: Date): DomainError {
  const retryAfter = secondsUntilReset(decision, now);
  return new DomainError(
    'rate_limited',
    `Too many requests: at most ${rule.limit} in ${rule.windowMs / 60000} minutes. Retry after ${retryAfter} s.`,
    {
      limit: rule.limit,
      window_seconds: rule.windowMs / 1000,
    },
    { retryAfterSeconds: retryAfter },
  );
}
