import { ApiError } from '../../errors.js';
import { quotaPeriod } from '../../ports/quota.js';
import { rateRules } from '../../ports/rate-limiter.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { judgeRate } from '../shared/rate-decision.js';
import { unavailable } from '../shared/unavailable.js';

/**
 * The send rate limit and the quota, in one Redis round trip. The quota is taken only for a send
 * that passed every other check; it is given back if the rate limit says no or a later step fails.
 */
export async function takeSendAllowance(services: Services, principal: Principal, allowance: number, now: Date) {
  const period = quotaPeriod(now);
  const [rateResult, quotaResult] = await Promise.allSettled([
    services.rateLimiter.limit(rateRules.send, `${rateRules.send.name}:key:${principal.apiKeyId}`),
    services.quota.consume(principal.companyId, period, allowance),
  ]);
  if (rateResult.status === 'rejected' || quotaResult.status === 'rejected') {
    // One store failed: a quota the other took is given back before answering.
    if (quotaResult.status === 'fulfilled' && quotaResult.value.ok) await services.quota.refund(principal.companyId, period).catch(() => undefined);
    throw unavailable(rateResult.status === 'rejected' ? rateResult.reason : (quotaResult as PromiseRejectedResult).reason);
  }
  const [rate, quota] = [rateResult.value, quotaResult.value];
  const { headers, refusal } = judgeRate(rateRules.send, rate, now);
  let given = false;
  const giveBack = async () => {
    if (!quota.ok || given) return;
    given = true;
    await services.quota.refund(principal.companyId, period).catch(() => undefined);
  };
  if (!quota.ok) {
    throw new ApiError('quota_exceeded', 'The company has no API signature requests left for this period.', { period, allowance }, headers);
  }
  if (refusal) {
    await giveBack();
    throw refusal;
  }
  return { headers, giveBack };
}
