import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/adapters/embedded/memory-rate-limiter.js';
import { ManualClock } from '../../src/ports/clock.js';

const rule = { name: 't', limit: 10, windowMs: 60_000 };

describe('MemoryRateLimiter (sliding window)', () => {
  it('allows exactly the limit in a window, then refuses with the window end as reset', async () => {
    const clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
    const limiter = new MemoryRateLimiter(clock);
    for (let i = 1; i <= 10; i++) expect(await limiter.limit(rule, 'a')).toMatchObject({ success: true, remaining: 10 - i });
    const refused = await limiter.limit(rule, 'a');
    expect(refused).toEqual({ success: false, limit: 10, remaining: 0, reset: Date.parse('2026-11-22T12:01:00.000Z') });
    expect((await limiter.limit(rule, 'b')).success).toBe(true);
  });

  it('weights the previous window by how much of it still overlaps', async () => {
    const clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
    const limiter = new MemoryRateLimiter(clock);
    for (let i = 0; i < 10; i++) await limiter.limit(rule, 'a');
    // A quarter into the next window, 75 % of the previous 10 still count: 7 of 10 used.
    clock.set('2026-11-22T12:01:15.000Z');
    const results = [];
    for (let i = 0; i < 4; i++) results.push((await limiter.limit(rule, 'a')).success);
    expect(results).toEqual([true, true, true, false]);
    // Two windows later nothing counts any more.
    clock.set('2026-11-22T12:03:00.000Z');
    expect(await limiter.limit(rule, 'a')).toMatchObject({ success: true, remaining: 9 });
  });

  it('never lets concurrent callers past the limit', async () => {
    const limiter = new MemoryRateLimiter(new ManualClock());
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.limit(rule, 'c')));
    expect(results.filter((result) => result.success)).toHaveLength(10);
  });
});
