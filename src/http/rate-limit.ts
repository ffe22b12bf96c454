import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { ApiError } from '../errors.js';
import type { RateRule } from '../ports/rate-limiter.js';
import type { AppEnv } from './app-env.js';

/**
 * Counts the request against `rule` for the identifier, sets the `RateLimit-*` headers on the
 * answer, whatever it turns out to be, and refuses with `429 rate_limited` past the limit.
 */
export function countRequest(rule: RateRule, identify: (c: Context<AppEnv>) => string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const services = c.get('services');
    const decision = await services.rateLimiter.limit(rule, `${rule.name}:${identify(c)}`);
    const resetSeconds = Math.max(0, Math.ceil((decision.reset - services.clock.now().getTime()) / 1000));
    const headers = {
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(Math.max(0, decision.remaining)),
      'RateLimit-Reset': String(resetSeconds),
    };
    if (!decision.success) {
      throw new ApiError(
        'rate_limited',
        `Too many requests: at most ${rule.limit} in ${rule.windowMs / 60000} minutes. Retry after ${resetSeconds} s.`,
        { limit: rule.limit, window_seconds: rule.windowMs / 1000, retry_after_seconds: resetSeconds },
        { ...headers, 'Retry-After': String(resetSeconds) },
      );
    }
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    await next();
  });
}
