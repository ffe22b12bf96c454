import { ApiError } from '../../errors.js';
import type { RateDecision, RateRule } from '../../ports/rate-limiter.js';

/** The `RateLimit-*` headers of a decision, and the `429 rate_limited` error when it said no. */
export function judgeRate(rule: RateRule, decision: RateDecision, now: Date): { headers: Record<string, string>; refusal?: ApiError } {
  const resetSeconds = Math.max(0, Math.ceil((decision.reset - now.getTime()) / 1000));
  const headers = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(Math.max(0, decision.remaining)),
    'RateLimit-Reset': String(resetSeconds),
  };
  if (decision.success) return { headers };
  return {
    headers,
    refusal: new ApiError(
      'rate_limited',
      `Too many requests: at most ${rule.limit} in ${rule.windowMs / 60000} minutes. Retry after ${resetSeconds} s.`,
      { limit: rule.limit, window_seconds: rule.windowMs / 1000, retry_after_seconds: resetSeconds },
      { ...headers, 'Retry-After': String(resetSeconds) },
    ),
  };
}

