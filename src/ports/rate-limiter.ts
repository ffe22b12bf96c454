/**
 * A rate limit rule of docs/api-reference.md, section 8.1: at most `limit` requests per `windowMs`, counted per
 * identifier (an IP address or an API key id).
 */
export type RateRule = { name: string; limit: number; windowMs: number };

export type RateDecision = {
  success: boolean;
  limit: number;
  remaining: number;
  /** When the caller may next be allowed, as epoch milliseconds. */
  reset: number;
  /** The count could not be made (Redis failed) and the request went on: no headers report it. */
  unmetered?: true;
};

export interface RateLimiter {
  limit(rule: RateRule, identifier: string): Promise<RateDecision>;
}

const FIFTEEN_MINUTES = 15 * 60 * 1000;

export const rateRules = {
  tokenExchange: { name: 'token', limit: 20, windowMs: FIFTEEN_MINUTES },
  send: { name: 'send', limit: 100, windowMs: FIFTEEN_MINUTES },
  other: { name: 'other', limit: 1000, windowMs: FIFTEEN_MINUTES },
} as const satisfies Record<string, RateRule>;
