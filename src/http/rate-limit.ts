import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { rateLimited, secondsUntilReset } from '../domain/shared/rate-decision.js';
import type { RateDecision, RateRule } from '../ports/rate-limiter.js';
import type { AppEnv } from './app-env.js';

/** Puts the `RateLimit-*` headers of a decision on the answer, whatever the answer turns out to be. */
export function reportRate(c: Context<AppEnv>, decision: RateDecision): void {
  if (decision.unmetered) return;
  c.header('RateLimit-Limit', String(decision.limit));
  c.header('RateLimit-Remaining', String(Math.max(0, decision.remaining)));
  c.header('RateLimit-Reset', String(secondsUntilReset(decision, c.get('services').clock.now())));
}

/** Reports a decision, and refuses with 429 when it said no. */
export function applyRate(c: Context<AppEnv>, rule: RateRule, decision: RateDecision): void {
  reportRate(c, decision);
  if (!decision.success) throw rateLimited(rule, decision, c.get('services').clock.now());
}

/** Counts the request against `rule` for the identifier (the token endpoint's per-IP limit). */
export function countRequest(rule: RateRule, identify: (c: Context<AppEnv>) => string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    applyRate(c, rule, await c.get('services').rateLimiter.limit(rule, `${rule.name}:${identify(c)}`));
    await next();
  });
}
