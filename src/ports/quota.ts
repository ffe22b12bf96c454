/**
 * The plan's API signature requests per company and calendar month (UTC), spec section 8.3.
 * `consume` is atomic: N concurrent calls with Q left succeed exactly min(N, Q) times.
 */
export interface QuotaCounter {
  consume(companyId: string, period: string, allowance: number): Promise<{ ok: boolean; used: number }>;
  /** Gives one back after a send that failed once its quota was taken. */
  refund(companyId: string, period: string): Promise<void>;
  used(companyId: string, period: string): Promise<number>;
}

/** `2026-11` for any instant in November 2026, UTC. */
export const quotaPeriod = (at: Date) => at.toISOString().slice(0, 7);
