import type { Services } from '../../services.js';

/**
 * Queue consumer: gives back a quota unit (and Idempotency-Key claim) of a send that failed to
 * commit, when the send limits refused the refund at the time. Throws while they still refuse, so
 * the queue keeps retrying until the count is right again.
 */
export async function releaseQuota(services: Services, body: Record<string, unknown>): Promise<void> {
  const { company_id: companyId, api_key_id: apiKeyId, period, claim_key: claimKey } = body;
  if (typeof companyId !== 'string' || typeof apiKeyId !== 'string' || typeof period !== 'string') return;
  await services.sendLimits.release({ companyId, apiKeyId, period, quota: true, ...(typeof claimKey === 'string' ? { claimKey } : {}) });
}
