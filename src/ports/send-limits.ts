/**
 * What a send must be allowed before it writes anything, decided in one atomic step (one Redis
 * round trip in production) once its reads have passed validation: the attempt counted against the
 * send rate limit, the Idempotency-Key claimed, one unit of the company's quota taken. The order is
 * the rule: a send the limit refuses takes nothing; a twin of a send in flight takes no quota; a
 * send refused for quota holds no claim. A send its reads refuse (404, 422) is only counted: refused
 * sends count against the limit too, so invalid requests cannot be retried without bound.
 */
import type { RateDecision } from './rate-limiter.js';

export type SendAttempt = {
  apiKeyId: string;
  companyId: string;
  /** Quota period (`YYYY-MM`, UTC). */
  period: string;
  /** The plan's allowance for the period, as the send's reads found it. */
  allowance: number;
  /** Claim this Idempotency-Key for the send, remembering the hash of its body. */
  claim?: { key: string; requestHash: string };
};

export type SendAdmission =
  /** A unit taken (`used` counts it) and the claim, if asked, won; `release` gives both back, once. */
  | { outcome: 'admitted'; rate: RateDecision; used: number; release: string }
  /** Refused by the send rate limit: nothing taken, nothing counted. */
  | { outcome: 'limited'; rate: RateDecision }
  /** The Idempotency-Key is held by a send still running, of a body with this hash: no unit taken. */
  | { outcome: 'held'; rate: RateDecision; heldFor: string }
  /** None of the allowance left: no unit taken, no claim held. */
  | { outcome: 'exceeded'; rate: RateDecision; used: number; allowance: number };

/**
 * What an admitted send whose write failed gives back: its unit, and its claim if it had one. With
 * the admission's `token`, given back once however often it is asked (a release retried after a
 * timeout, or run twice), and not at all once the token has lapsed (CLAIM_TTL_MS after the
 * admission: a send's write is over long before). Without one, as the queue's `quota.release`
 * messages of earlier versions ask it: unconditionally, once per message.
 */
export type SendRelease = { apiKeyId: string; companyId: string; period: string; claimKey?: string; token?: string };

/**
 * Sends of a company refused in a period, for its usage page: for quota (`402 quota_exceeded`) and
 * by the send rate limit (`429`). Counted in the same step that refused them, so a refusal costs
 * no further round trip; kept as long as the period's quota count.
 */
export type SendRefusals = { quota: number; rate: number };

export interface SendLimits {
  /** A refusal (`limited`, `exceeded`) is counted among the company's refusals of the period in the same step. */
  admit(attempt: SendAttempt, now: Date): Promise<SendAdmission>;
  /**
   * Counts a send answered without an admission (refused by its reads, or a replay) against the
   * key's send limit; refused by the limit, it is counted among `companyId`'s refusals when given.
   */
  count(apiKeyId: string, now: Date, companyId?: string): Promise<RateDecision>;
  /** True when something was given back: false for a token already spent, lapsed or unknown. */
  release(release: SendRelease): Promise<boolean>;
  /** Quota units used in a period (for tests and operators). */
  used(companyId: string, period: string): Promise<number>;
  /** The company's sends refused in a period (`YYYY-MM`, UTC). */
  refusals(companyId: string, period: string): Promise<SendRefusals>;
}

/** How long a claim holds when its send dies before answering: a twin may then go ahead. */
export const CLAIM_TTL_MS = 60_000;

/** Sends the database records for a company in a period: the quota counters are rebuilt from it. */
export type QuotaBaseline = (companyId: string, period: string) => Promise<number>;

/** `2026-11` for any instant in November 2026, UTC. */
export const quotaPeriod = (at: Date) => at.toISOString().slice(0, 7);
