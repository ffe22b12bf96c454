import type { VerbContext } from '../verb-context.js';

/**
 * Queue consumer of `quota.release`: gives back the quota unit (and Idempotency-Key claim) of a send
 * that failed to commit, for messages queued by earlier versions, which queued such a release when
 * the send limits refused it at the time. A send now gives it back in the request (releaseAdmission)
 * and queues nothing. Throws while the send limits refuse, so the queue keeps retrying.
 */
export async function releaseQuota({ services }: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>): Promise<void> {
  const { company_id: companyId, api_key_id: apiKeyId, period, claim_key: claimKey } = body;
  if (typeof companyId !== 'string' || typeof apiKeyId !== 'string' || typeof period !== 'string') return;
  await services.sendLimits.release({ companyId, apiKeyId, period, ...(typeof claimKey === 'string' ? { claimKey } : {}) });
}
