import { describe, expect, it } from 'vitest';
import { MemoryQuotaCounter } from '../../src/adapters/embedded/memory-quota-counter.js';
import { quotaPeriod } from '../../src/ports/quota.js';

describe('MemoryQuotaCounter', () => {
  it('gives exactly min(N, Q) of N concurrent consumes with Q left', async () => {
    const counter = new MemoryQuotaCounter();
    const results = await Promise.all(Array.from({ length: 50 }, () => counter.consume('c1', '2026-11', 10)));
    expect(results.filter((result) => result.ok)).toHaveLength(10);
    expect(await counter.used('c1', '2026-11')).toBe(10);
  });

  it('starts from what the database already records, and a refund gives one back', async () => {
    const counter = new MemoryQuotaCounter(async () => 9);
    expect(await counter.consume('c1', '2026-11', 10)).toEqual({ ok: true, used: 10 });
    expect(await counter.consume('c1', '2026-11', 10)).toEqual({ ok: false, used: 10 });
    await counter.refund('c1', '2026-11');
    expect(await counter.consume('c1', '2026-11', 10)).toEqual({ ok: true, used: 10 });
  });

  it('keeps periods and companies apart; a zero allowance refuses at once', async () => {
    const counter = new MemoryQuotaCounter();
    expect((await counter.consume('c1', '2026-11', 0)).ok).toBe(false);
    expect((await counter.consume('c1', '2026-12', 1)).ok).toBe(true);
    expect((await counter.consume('c2', '2026-12', 1)).ok).toBe(true);
  });

  it('names the period by the calendar month in UTC', () => {
    expect(quotaPeriod(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(quotaPeriod(new Date('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
  });
});
