import type { Clock } from '../../ports/clock.js';
import type { RateDecision, RateLimiter, RateRule } from '../../ports/rate-limiter.js';

type Window = { start: number; count: number; previous: number };

/**
 * The sliding window of the production limits (@upstash/ratelimit's
 * `slidingWindow`), in process: the previous fixed window's count is weighted by how much of it
 * still overlaps the sliding window. Same algorithm as production, so
 * the embedded server limits exactly as the deployed one does. Node runs this synchronously, so
 * concurrent requests cannot both take the last slot.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock) {}

  async limit(rule: RateRule, identifier: string): Promise<RateDecision> {
    return this.decide(rule, identifier, this.clock.now().getTime());
  }

  /** The decision, synchronously: callers that must decide several things atomically use this. */
  decide(rule: RateRule, identifier: string, now: number): RateDecision {
    const start = Math.floor(now / rule.windowMs) * rule.windowMs;
    const window = this.advance(this.windows.get(identifier), start, rule.windowMs);
    const overlap = 1 - (now - start) / rule.windowMs;
    const weighted = Math.floor(window.previous * overlap + window.count);
    const reset = start + rule.windowMs;
    if (weighted >= rule.limit) {
      this.windows.set(identifier, window);
      return { success: false, limit: rule.limit, remaining: 0, reset };
    }
    window.count += 1;
    this.windows.set(identifier, window);
    if (this.windows.size > 50_000) this.sweep(now, rule.windowMs);
    return { success: true, limit: rule.limit, remaining: rule.limit - weighted - 1, reset };
  }

  private advance(window: Window | undefined, start: number, windowMs: number): Window {
    if (!window || window.start < start - windowMs) return { start, count: 0, previous: 0 };
    if (window.start === start) return window;
    return { start, count: 0, previous: window.count };
  }

  /** Forgets identifiers idle for two windows, so memory stays bounded on a long-running server. */
  private sweep(now: number, windowMs: number): void {
    for (const [identifier, window] of this.windows) if (window.start < now - 2 * windowMs) this.windows.delete(identifier);
  }
}
