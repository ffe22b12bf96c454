/**
 * What a send must be allowed before it writes anything, decided in one atomic step (one Redis
 * round trip in production): the Idempotency-Key is claimed first, so a twin of a send in flight
 * never takes quota; the attempt is counted against the send rate limit (refused sends count
 * too, so invalid requests cannot be retried without bound); and one unit of the company's
 * quota is taken only when the limit allows it and the send passed validation.
 */
import type { RateDecision } from './rate-limiter.js';

export type SendAttempt = {
  apiKeyId: string;
  companyId: string;
  /** Quota period (`YYYY-MM`, UTC) and the plan's allowance for it. */
  period: string;
  allowance: number;
  /** Take one quota unit: only a send that passed every other check asks for it. */
  takeQuota: boolean;
  /** Claim this Idempotency-Key for the send, remembering the hash of its body. */
  claim?: { key: string; requestHash: string };
};

export type SendAdmission = {
  rate: RateDecision;
  /** `taken`; `exceeded` when none is left; `not_asked` when not asked for or refused before it. */
  quota: 'taken' | 'exceeded' | 'not_asked';
  /** Null without a claim; else whether it was won, or the body hash of the send holding it. */
  claim: null | { won: true } | { won: false; heldFor: string };
};

export type SendRelease = { apiKeyId: string; companyId: string; period: string; quota: boolean; claimKey?: string };

export interface SendLimits {
  admit(attempt: SendAttempt, now: Date): Promise<SendAdmission>;
  /** Gives back what an admitted send took but did not use: its quota unit, its claim. */
  release(release: SendRelease): Promise<void>;
  /** Quota units used in a period (for tests and operators). */
  used(companyId: string, period: string): Promise<number>;
}

/** How long a claim holds when its send dies before answering: a twin may then go ahead. */
export const CLAIM_TTL_MS = 60_000;

/** Sends the database records for a company in a period: the quota counters are rebuilt from it. */
export type QuotaBaseline = (companyId: string, period: string) => Promise<number>;

/** `2026-11` for any instant in November 2026, UTC. */
export const quotaPeriod = (at: Date) => at.toISOString().slice(0, 7);
