import { ApiError } from '../../errors.js';
import { logError } from '../../lib/log-error.js';
import { type RateDecision, rateRules } from '../../ports/rate-limiter.js';
import { quotaPeriod, type SendAdmission } from '../../ports/send-limits.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { rateLimited } from '../shared/rate-decision.js';
import { topics } from './follow-ups.js';
import { unavailable } from '../shared/unavailable.js';

export type RateReport = (decision: RateDecision) => void;

/**
 * Asks the send limits, in one atomic step, for what one send needs: the attempt counted against
 * the send rate limit (every send counts, refused or not), the Idempotency-Key claimed, and, for a
 * send that passed validation, one quota unit. The decision is reported before anything is thrown,
 * so that every answer carries the limit's headers.
 */
export function sendAdmission(services: Services, principal: Principal, allowance: number, now: Date, report: RateReport) {
  const period = quotaPeriod(now);
  const scope = { apiKeyId: principal.apiKeyId, companyId: principal.companyId, period };

  async function admit(takeQuota: boolean, claim?: { key: string; requestHash: string }): Promise<SendAdmission> {
    const admission = await services.sendLimits.admit({ ...scope, allowance, takeQuota, ...(claim ? { claim } : {}) }, now).catch((err: unknown) => {
      throw unavailable(err);
    });
    report(admission.rate);
    if (!admission.rate.success) throw rateLimited(rateRules.send, admission.rate, now);
    if (admission.quota === 'exceeded') {
      throw new ApiError('quota_exceeded', 'The company has no API signature requests left for this period.', { period, allowance });
    }
    return admission;
  }

  return {
    admit,
    /** Counts a send refused before it could take anything, then refuses it (or limits it first). */
    async refuse(error: unknown): Promise<never> {
      if (error instanceof ApiError) await admit(false);
      throw error;
    },
    /**
     * Gives back the quota unit and claim of a send that failed to commit. A refund the store
     * refuses is handed to the queue, which retries it until the store takes it.
     */
    async release(claimKey: string | undefined): Promise<void> {
      const release = { ...scope, quota: true, ...(claimKey ? { claimKey } : {}) };
      await services.sendLimits.release(release).catch(async (err: unknown) => {
        logError('quota refund failed; queued for a retry', err);
        await services.queue
          .publish([{ topic: topics.quotaRelease, body: { company_id: scope.companyId, api_key_id: scope.apiKeyId, period, claim_key: claimKey ?? null } }])
          .catch((queueErr: unknown) => logError('quota refund could not be queued either; the count stays one high', queueErr));
      });
    },
  };
}
