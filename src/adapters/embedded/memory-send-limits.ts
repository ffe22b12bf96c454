import { randomBase62 } from '../../lib/crypto.js';
import type { Clock } from '../../ports/clock.js';
import { type RateDecision, rateRules } from '../../ports/rate-limiter.js';
import {
  CLAIM_TTL_MS,
  type QuotaBaseline,
  quotaPeriod,
  type SendAdmission,
  type SendAttempt,
  type SendLimits,
  type SendRefusals,
  type SendRelease,
} from '../../ports/send-limits.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';

const MAX_CLAIMS = 100_000;
type Claim = { requestHash: string; expires: number };
/** What an admission took, under its release token until it lapses, as the Redis script keeps it. */
type Taken = { quotaKey: string; claimKey: string | undefined; claim: Claim | undefined; expires: number };
const rateKey = (apiKeyId: string) => `${rateRules.send.name}:key:${apiKeyId}`;

/**
 * The send's limits in process. Once the quota baseline is loaded, `admit` decides without
 * yielding, so on one Node process concurrent sends see each other exactly: N sends with Q left
 * take min(N, Q), and of two twins with one Idempotency-Key exactly one wins the claim. A release
 * with a token does not yield either: of any number asked at once, one gives the unit back.
 * Refusals are counted per company and period in process: a restart forgets them, as it forgets
 * the rate windows (the quota count, unlike them, is rebuilt from the database).
 */
export class MemorySendLimits implements SendLimits {
  private readonly limiter: MemoryRateLimiter;
  private readonly counts = new Map<string, number>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly claims = new Map<string, Claim>();
  private readonly admissions = new Map<string, Taken>();
  private readonly refused = new Map<string, SendRefusals>();

  constructor(
    private readonly clock: Clock,
    private readonly baseline: QuotaBaseline = async () => 0,
  ) {
    this.limiter = new MemoryRateLimiter(clock);
  }

  async admit(attempt: SendAttempt, now: Date): Promise<SendAdmission> {
    const quotaKey = await this.load(attempt.companyId, attempt.period);
    // From here to the answer nothing yields: the whole admission is one step.
    const at = now.getTime();
    const rate = this.limiter.decide(rateRules.send, rateKey(attempt.apiKeyId), at);
    if (!rate.success) {
      this.countRefusal(attempt.companyId, attempt.period, 'rate');
      return { outcome: 'limited', rate };
    }
    const claimKey = attempt.claim && `${attempt.apiKeyId}:${attempt.claim.key}`;
    const held = claimKey ? this.claims.get(claimKey) : undefined;
    if (held && held.expires > at) return { outcome: 'held', rate, heldFor: held.requestHash };
    const used = this.counts.get(quotaKey) ?? 0;
    if (used >= attempt.allowance) {
      this.countRefusal(attempt.companyId, attempt.period, 'quota');
      return { outcome: 'exceeded', rate, used, allowance: attempt.allowance };
    }
    const claim = attempt.claim && { requestHash: attempt.claim.requestHash, expires: at + CLAIM_TTL_MS };
    if (claimKey && claim) this.claims.set(claimKey, claim);
    const token = randomBase62(22);
    this.admissions.set(token, { quotaKey, claimKey, claim, expires: at + CLAIM_TTL_MS });
    if (this.claims.size > MAX_CLAIMS || this.admissions.size > MAX_CLAIMS) this.forgetExpired(at);
    this.counts.set(quotaKey, used + 1);
    return { outcome: 'admitted', rate, used: used + 1, release: token };
  }

  async count(apiKeyId: string, now: Date, companyId?: string): Promise<RateDecision> {
    const rate = this.limiter.decide(rateRules.send, rateKey(apiKeyId), now.getTime());
    if (!rate.success && companyId) this.countRefusal(companyId, quotaPeriod(now), 'rate');
    return rate;
  }

  async release(release: SendRelease): Promise<boolean> {
    if (release.token) return this.giveBack(release.token, `${release.companyId}:${release.period}`);
    if (release.claimKey) this.claims.delete(`${release.apiKeyId}:${release.claimKey}`);
    const key = await this.load(release.companyId, release.period);
    this.counts.set(key, Math.max(0, (this.counts.get(key) ?? 0) - 1));
    return true;
  }

  async used(companyId: string, period: string): Promise<number> {
    return this.counts.get(await this.load(companyId, period)) ?? 0;
  }

  async refusals(companyId: string, period: string): Promise<SendRefusals> {
    return { ...(this.refused.get(`${companyId}:${period}`) ?? { quota: 0, rate: 0 }) };
  }

  private countRefusal(companyId: string, period: string, reason: keyof SendRefusals): void {
    const key = `${companyId}:${period}`;
    const counts = this.refused.get(key) ?? { quota: 0, rate: 0 };
    counts[reason] += 1;
    this.refused.set(key, counts);
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

  /** Spends the token and gives back what its admission took, without yielding: once, however often asked. */
  private giveBack(token: string, quotaKey: string): boolean {
    const taken = this.admissions.get(token);
    if (!taken || taken.quotaKey !== quotaKey) return false;
    this.admissions.delete(token);
    if (taken.expires <= this.clock.now().getTime()) return false;
    this.counts.set(quotaKey, Math.max(0, (this.counts.get(quotaKey) ?? 0) - 1));
    // Only the claim this admission took: a later send may hold the key by now.
    if (taken.claimKey && this.claims.get(taken.claimKey) === taken.claim) this.claims.delete(taken.claimKey);
    return true;
  }

  private forgetExpired(now: number): void {
    for (const [key, claim] of this.claims) if (claim.expires <= now) this.claims.delete(key);
    for (const [token, taken] of this.admissions) if (taken.expires <= now) this.admissions.delete(token);
  }
}
