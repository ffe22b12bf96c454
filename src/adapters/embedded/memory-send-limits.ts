import type { Clock } from '../../ports/clock.js';
import { rateRules } from '../../ports/rate-limiter.js';
import { CLAIM_TTL_MS, type QuotaBaseline, type SendAdmission, type SendAttempt, type SendLimits, type SendRelease } from '../../ports/send-limits.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';

const MAX_CLAIMS = 100_000;

/**
 * The send's limits in process. After the quota baseline is loaded, `admit` decides without
 * yielding, so on one Node process concurrent sends see each other exactly: N sends with Q left
 * take min(N, Q), and of two twins with one Idempotency-Key exactly one wins the claim.
 */
export class MemorySendLimits implements SendLimits {
  private readonly limiter: MemoryRateLimiter;
  private readonly counts = new Map<string, number>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly claims = new Map<string, { requestHash: string; expires: number }>();
  /** The allowance each company's last admission was given, for the next one that comes without. */
  private readonly allowances = new Map<string, number>();

  constructor(
    clock: Clock,
    private readonly baseline: QuotaBaseline = async () => 0,
  ) {
    this.limiter = new MemoryRateLimiter(clock);
  }

  async admit(attempt: SendAttempt, now: Date): Promise<SendAdmission> {
    const quotaKey = attempt.takeQuota ? await this.load(attempt.companyId, attempt.period) : '';
    const at = now.getTime();
    const rateKey = `${rateRules.send.name}:key:${attempt.apiKeyId}`;
    const rate = attempt.countAttempt === false ? this.limiter.peek(rateRules.send, rateKey, at) : this.limiter.decide(rateRules.send, rateKey, at);
    if (!rate.success) return { rate, quota: 'not_asked', claim: null };

    let claim: SendAdmission['claim'] = null;
    if (attempt.claim) {
      const claimKey = `${attempt.apiKeyId}:${attempt.claim.key}`;
      const held = this.claims.get(claimKey);
      if (held && held.expires > at) return { rate, quota: 'not_asked', claim: { won: false, heldFor: held.requestHash } };
      this.claims.set(claimKey, { requestHash: attempt.claim.requestHash, expires: at + CLAIM_TTL_MS });
      if (this.claims.size > MAX_CLAIMS) this.forgetExpired(at);
      claim = { won: true };
    }
    if (!attempt.takeQuota) return { rate, quota: 'not_asked', claim };
    if (attempt.allowance !== 'remembered') this.allowances.set(attempt.companyId, attempt.allowance);
    const allowance = this.allowances.get(attempt.companyId);
    if (allowance === undefined) return { rate, quota: 'allowance_unknown', claim };
    const used = this.counts.get(quotaKey) ?? 0;
    if (used >= allowance) {
      if (attempt.claim) this.claims.delete(`${attempt.apiKeyId}:${attempt.claim.key}`);
      return { rate, quota: 'exceeded', claim, used, allowance };
    }
    this.counts.set(quotaKey, used + 1);
    return { rate, quota: 'taken', claim, used: used + 1, allowance };
  }

  async release(release: SendRelease): Promise<void> {
    if (release.claimKey) this.claims.delete(`${release.apiKeyId}:${release.claimKey}`);
    if (!release.quota) return;
    const key = await this.load(release.companyId, release.period);
    this.counts.set(key, Math.max(0, (this.counts.get(key) ?? 0) - 1));
  }

  async used(companyId: string, period: string): Promise<number> {
    return this.counts.get(await this.load(companyId, period)) ?? 0;
  }

  /** The count of a period starts from what the database records, so a restart gives no fresh allowance. */
  private async load(companyId: string, period: string): Promise<string> {
    const key = `${companyId}:${period}`;
    while (!this.counts.has(key)) {
      let pending = this.loading.get(key);
      if (!pending) {
        pending = this.baseline(companyId, period).then((used) => {
          if (!this.counts.has(key)) this.counts.set(key, used);
        });
        // Settled either way, the load is forgotten: a failed one is asked again by the next send.
        pending.finally(() => this.loading.delete(key)).catch(() => undefined);
        this.loading.set(key, pending);
      }
      await pending;
    }
    return key;
  }

  private forgetExpired(now: number): void {
    for (const [key, claim] of this.claims) if (claim.expires <= now) this.claims.delete(key);
  }
}
