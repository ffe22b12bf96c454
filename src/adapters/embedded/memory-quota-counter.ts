import type { QuotaCounter } from '../../ports/quota.js';

/**
 * The in-process quota counter. `consume` checks and increments without yielding, so on one Node
 * process concurrent sends with Q left succeed exactly Q times. `usedSoFar` tells it how much of a
 * period the database already records, so a restart does not hand out a fresh allowance.
 */
export class MemoryQuotaCounter implements QuotaCounter {
  private readonly counts = new Map<string, number>();
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly usedSoFar: (companyId: string, period: string) => Promise<number> = async () => 0) {}

  async consume(companyId: string, period: string, allowance: number): Promise<{ ok: boolean; used: number }> {
    const key = await this.load(companyId, period);
    const used = this.counts.get(key) ?? 0;
    if (used >= allowance) return { ok: false, used };
    this.counts.set(key, used + 1);
    return { ok: true, used: used + 1 };
  }

  async refund(companyId: string, period: string): Promise<void> {
    const key = await this.load(companyId, period);
    this.counts.set(key, Math.max(0, (this.counts.get(key) ?? 0) - 1));
  }

  async used(companyId: string, period: string): Promise<number> {
    return this.counts.get(await this.load(companyId, period)) ?? 0;
  }

  private async load(companyId: string, period: string): Promise<string> {
    const key = `${companyId}:${period}`;
    if (!this.counts.has(key)) {
      let pending = this.loading.get(key);
      if (!pending) {
        pending = this.usedSoFar(companyId, period).then((used) => {
          if (!this.counts.has(key)) this.counts.set(key, used);
        });
        this.loading.set(key, pending);
      }
      await pending;
      this.loading.delete(key);
    }
    return key;
  }
}
