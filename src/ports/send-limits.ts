/**
 * What a send must be allowed before it writes anything, decided in one atomic step (one Redis
 * round trip in production): the Idempotency-Key is claimed first, so a twin of a send in flight
 * never takes quota; the attempt is counted against the send rate limit (refused sends count
 * too, so invalid requests cannot be retried without bound); and one unit of the company's
 * quota is taken when the limit allows it. A send asks while it still reads its template, so the
 * unit of a send that validation then refuses is given back (`release`) before it answers.
 */
import type { RateDecision } from './rate-limiter.js';

export type SendAttempt = {
  apiKeyId: string;
  companyId: string;
  /** Quota period (`YYYY-MM`, UTC). */
  period: string;
  /**
   * The plan's allowance for the period, as the database has it now; or `remembered`: the one the
   * last admission of this company was given. A send asks while its reads are still on their way,
   * and checks the decision against the allowance they bring (see send-admission.ts).
   */
  allowance: number | 'remembered';
  /** Take one quota unit (given back if the send is then refused). */
  takeQuota: boolean;
  /** Count the attempt against the send rate limit: false for the second step of one send. */
  countAttempt?: boolean;
  /** Claim this Idempotency-Key for the send, remembering the hash of its body. */
  claim?: { key: string; requestHash: string };
};

export type SendAdmission = {
  rate: RateDecision;
  /**
   * `taken`; `exceeded` when none is left; `not_asked` when not asked for or refused before it;
   * `allowance_unknown` when asked against a remembered allowance that no admission gave yet.
   */
  quota: 'taken' | 'exceeded' | 'not_asked' | 'allowance_unknown';
  /** With `taken` or `exceeded`: the units used in the period (this one included) and the allowance they were held against. */
  used?: number;
  allowance?: number;
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
