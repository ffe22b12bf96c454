import { DomainError } from '../../errors.js';
import { logError } from '../../lib/log-error.js';
import { type RateDecision, rateRules } from '../../ports/rate-limiter.js';
import { quotaPeriod, type SendAdmission } from '../../ports/send-limits.js';
import type { Services } from '../../services.js';
import { rateLimited } from '../shared/rate-decision.js';
import { unavailable } from '../shared/unavailable.js';
import { topics } from './follow-ups.js';

export type RateReport = (decision: RateDecision) => void;
type Scope = { companyId: string; apiKeyId: string };
type Claim = { key: string; requestHash: string };

/**
 * A send's admission by the send limits, asked as soon as the request is read, in the same network
 * wave as the send's reads: the attempt counted against the send rate limit (every send counts,
 * refused or not), the Idempotency-Key claimed, and one quota unit taken against the allowance the
 * company's last send was given. The send's own reads then settle it: `admit` checks the unit
 * against the allowance as the database has it now (asking Redis again only when the two differ
 * at the edge of the allowance), `refuse` gives back what a refused send took. Either way the
 * decision is reported before anything is thrown, so every answer carries the limit's headers.
 *
 * A unit is taken before validation, so a valid send racing an invalid one for a company's very
 * last unit may be told `quota_exceeded` while the other is about to give it back.
 */
export function startSendAdmission(services: Services, scope: Scope, now: Date, claim?: Claim) {
  const period = quotaPeriod(now);
  const asked = { ...scope, period };
  const first: Promise<SendAdmission> = services.sendLimits.admit({ ...asked, allowance: 'remembered', takeQuota: true, ...(claim ? { claim } : {}) }, now);
  first.catch(() => undefined); // awaited later; an unavailable Redis is reported then
  let settled = false;
  // What this admission holds and must give back if the send does not commit.
  const held = { unit: false, claim: false };
  first.then((admission) => {
    held.unit = admission.quota === 'taken';
    held.claim = Boolean(claim && admission.claim?.won);
  }, () => undefined);

  /** Hands back the unit and the claim this admission holds. A refund the store refuses is queued. */
  async function giveBack(options: { unit: boolean; claim: boolean }): Promise<void> {
    const quota = options.unit && held.unit;
    const claimKey = options.claim && held.claim ? claim?.key : undefined;
    held.unit &&= !quota;
    held.claim &&= !claimKey;
    if (!quota && !claimKey) return;
    await services.sendLimits.release({ ...asked, quota, ...(claimKey ? { claimKey } : {}) }).catch(async (err: unknown) => {
      logError('quota refund failed; queued for a retry', err);
      await services.queue
        .publish([{ topic: topics.quotaRelease, body: { company_id: scope.companyId, api_key_id: scope.apiKeyId, period, claim_key: claimKey ?? null } }])
        .catch((queueErr: unknown) => logError('quota refund could not be queued either; the count stays one high', queueErr));
    });
  }

  async function decided(report: RateReport): Promise<SendAdmission> {
    settled = true;
    const admission = await first.catch((err: unknown) => {
      throw unavailable(err);
    });
    report(admission.rate);
    if (!admission.rate.success) throw rateLimited(rateRules.send, admission.rate, now);
    return admission;
  }

  return {
    /**
     * The admission of a send that passed validation, against the company's allowance as read
     * with the template. Answers the claim's outcome; throws `quota_exceeded` when none is left.
     */
    async admit(allowance: number, report: RateReport): Promise<SendAdmission> {
      const admission = await decided(report);
      if (admission.claim && !admission.claim.won) return admission;
      let quota = admission.quota;
      if (quota === 'taken' && admission.used! > allowance) {
        // The remembered allowance was higher than the company's now.
        await giveBack({ unit: true, claim: false });
        quota = 'exceeded';
      } else if (quota === 'allowance_unknown' || (quota === 'exceeded' && admission.allowance! < allowance)) {
        // None remembered yet, or a lower one: ask again with the allowance as it is.
        const again = await services.sendLimits.admit({ ...asked, allowance, takeQuota: true, countAttempt: false }, now).catch((err: unknown) => {
          throw unavailable(err);
        });
        quota = again.quota;
        held.unit = quota === 'taken';
      }
      if (quota !== 'taken') {
        await giveBack({ unit: false, claim: true });
        throw new DomainError('quota_exceeded', 'The company has no API signature requests left for this period.', { period, allowance });
      }
      return { ...admission, quota };
    },
    /**
     * A send answered without being sent: a refusal (thrown again, unless the rate limit refuses
     * first) or a replay of an earlier answer. Gives back the unit and the claim first.
     */
    async refuse(error: DomainError | null, report: RateReport): Promise<void> {
      try {
        await decided(report);
      } catch (err) {
        // A refused input stays refused while Redis is away: never a 503 for bad input.
        if (error && !(err instanceof DomainError && err.code === 'rate_limited')) throw error;
        throw err;
      }
      await giveBack({ unit: true, claim: true });
      if (error) throw error;
    },
    /** A send that took its unit and claim but failed to commit: gives both back. */
    async release(): Promise<void> {
      await first.catch(() => undefined);
      await giveBack({ unit: true, claim: true });
    },
    /** A request that never reached the send (refused by the key check or the validator). */
    async abandon(): Promise<void> {
      if (settled) return;
      settled = true;
      await first.catch(() => undefined);
      await giveBack({ unit: true, claim: true });
    },
  };
}

export type StartedAdmission = ReturnType<typeof startSendAdmission>;
