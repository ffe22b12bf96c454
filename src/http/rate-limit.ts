import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { judgeRate } from '../domain/shared/rate-decision.js';
import type { RateDecision, RateRule } from '../ports/rate-limiter.js';
import type { AppEnv } from './app-env.js';

/** Sets the headers of a decision on the answer, whatever it turns out to be, or refuses with 429. */
export function applyRate(c: Context<AppEnv>, rule: RateRule, decision: RateDecision): void {
  const { headers, refusal } = judgeRate(rule, decision, c.get('services').clock.now());
  if (refusal) throw refusal;
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
}

/** Counts the request against `rule` for the identifier (the token endpoint's per-IP limit). */
export function countRequest(rule: RateRule, identify: (c: Context<AppEnv>) => string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    applyRate(c, rule, await c.get('services').rateLimiter.limit(rule, `${rule.name}:${identify(c)}`));
    await next();
  });
}
