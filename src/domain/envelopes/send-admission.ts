import { DomainError } from '../../errors.js';
import { logError } from '../../lib/log-error.js';
import { type RateDecision, rateRules } from '../../ports/rate-limiter.js';
import { quotaPeriod, type SendRelease } from '../../ports/send-limits.js';
import type { Services } from '../../services.js';
import { rateLimited } from '../shared/rate-decision.js';
import { unavailable } from '../shared/unavailable.js';

/** Told the send limit's decision as soon as it is known, so that every answer carries its headers. */
export type RateReport = (decision: RateDecision) => void;
export type SendScope = { companyId: string; apiKeyId: string };
type Claim = { key: string; requestHash: string };
/** What an admitted send gives back should its write fail: its unit and claim, once, by the admission's token. */
export type AdmissionRelease = SendRelease & { token: string };

/**
 * The second of a send's three network waves, asked only once its reads passed validation: the
 * attempt counted against the send limit, the Idempotency-Key claimed and one quota unit taken, in
 * one step of the send limits. Nothing was taken before it, so a send its reads refuse needs no
 * refund. Answers what the send gives back should its write fail (`release`), or the body hash of
 * a twin still holding the key; throws 429 or 402.
 */
export async function takeAdmission(
  services: Services,
  scope: SendScope,
  asked: { allowance: number; claim?: Claim | undefined },
  now: Date,
  report: RateReport,
): Promise<{ heldFor: string } | { release: AdmissionRelease }> {
  const period = quotaPeriod(now);
  const { claim, allowance } = asked;
  const admission = await services.sendLimits.admit({ ...scope, period, allowance, ...(claim ? { claim } : {}) }, now).catch((err: unknown) => {
    throw unavailable(err);
  });
  report(admission.rate);
  switch (admission.outcome) {
    case 'admitted':
      return { release: { ...scope, period, token: admission.release, ...(claim ? { claimKey: claim.key } : {}) } };
    case 'held':
      return { heldFor: admission.heldFor };
    case 'limited':
      throw rateLimited(rateRules.send, admission.rate, now);
    case 'exceeded':
      throw new DomainError('quota_exceeded', 'The company has no API signature requests left for this period.', { period, allowance });
  }
}

/**
 * A send answered without an admission still counts against the send limit: one refused by its
 * reads (`refusal`, thrown once counted, unless the limit refuses first) or a replay of an earlier
 * answer. While the send limits are away, a refusal is still answered as itself: never a 503 for
 * bad input; a replay fails closed like any send. One the limit refuses is counted among the
 * company's refused sends of the period by the same step.
 */
export async function countSend(services: Services, scope: SendScope, now: Date, report: RateReport, refusal?: DomainError): Promise<void> {
  const rate = await services.sendLimits.count(scope.apiKeyId, now, scope.companyId).catch((err: unknown) => {
    if (!refusal) throw unavailable(err);
    logError('a refused send was not counted against the send limit', err);
    throw refusal;
  });
  report(rate);
  if (!rate.success) throw rateLimited(rateRules.send, rate, now);
  if (refusal) throw refusal;
}

/**
 * Gives back the unit and the claim of an admitted send whose write then failed: the send did not
 * happen, so it must not count against the plan, and a retry with its key must not wait for it.
 * The one thing a send gives back, as a rollback rather than a refund of speculative work. The
 * admission's token makes it exact: asked twice, it gives back one unit; the send limits retry it a
 * few times within the request. Should they refuse every time (Redis away), the claim lapses by
 * itself (CLAIM_TTL_MS) and the unit stays counted for the period: one too many against the
 * company, never one too few. Nothing can carry it further: the queue is reached through the
 * outbox, which is the write that failed.
 */
export async function releaseAdmission(services: Services, release: AdmissionRelease): Promise<void> {
  await services.sendLimits.release(release).catch((err: unknown) => {
    logError('the admission of a send that failed could not be given back; its unit stays counted', err);
  });
}
