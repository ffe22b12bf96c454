/**
 * What every send limits adapter promises of a release by the admission's token, run against each
 * (the in-process one in test/unit, the Redis one in test/integration): one unit back however often
 * it is asked, nothing for a token it did not hand out, and only the claim its admission took.
 */
import { expect, it } from 'vitest';
import type { SendAdmission, SendAttempt, SendLimits } from '../../src/ports/send-limits.js';

const period = '2026-11';
export const releaseNow = new Date('2026-11-23T10:00:00.000Z');

export function sendReleaseCases(limits: () => SendLimits) {
  const attempt = (overrides: Partial<SendAttempt> = {}): SendAttempt => ({
    apiKeyId: `key_${crypto.randomUUID()}`,
    companyId: crypto.randomUUID(),
    period,
    allowance: 10,
    ...overrides,
  });
  const admitted = async (asked: SendAttempt) => {
    const admission = await limits().admit(asked, releaseNow);
    expect(admission.outcome).toBe('admitted');
    return (admission as Extract<SendAdmission, { outcome: 'admitted' }>).release;
  };
  const release = (asked: SendAttempt, token: string) =>
    limits().release({ companyId: asked.companyId, apiKeyId: asked.apiKeyId, period, token, ...(asked.claim ? { claimKey: asked.claim.key } : {}) });

  it('gives back one unit for an admission released twice', async () => {
    const base = attempt();
    const token = await admitted(base);
    await admitted(base);
    expect(await limits().used(base.companyId, period)).toBe(2);
    expect(await release(base, token)).toBe(true);
    expect(await release(base, token)).toBe(false);
    expect(await limits().used(base.companyId, period)).toBe(1);
  });

  it('gives back nothing for a token it never handed out, nor for one taken from another company', async () => {
    const base = attempt();
    const token = await admitted(base);
    expect(await release(base, `${token}x`)).toBe(false);
    expect(await release({ ...base, companyId: crypto.randomUUID() }, token)).toBe(false);
    expect(await limits().used(base.companyId, period)).toBe(1);
  });

  it('gives back exactly one unit to ten releases of one admission at once', async () => {
    const base = attempt();
    const token = await admitted(base);
    await admitted(base);
    const given = await Promise.all(Array.from({ length: 10 }, () => release(base, token)));
    expect(given.filter(Boolean)).toHaveLength(1);
    expect(await limits().used(base.companyId, period)).toBe(1);
  });

  it("frees the admission's claim, and a second release leaves a later send's claim of the key alone", async () => {
    const base = attempt({ claim: { key: 'order-1', requestHash: 'hash-a' } });
    const first = await admitted(base);
    expect(await release(base, first)).toBe(true);
    // The key is free: its retry is admitted, and holds the key from now on.
    await admitted({ ...base, claim: { key: 'order-1', requestHash: 'hash-b' } });
    expect(await release(base, first)).toBe(false);
    expect(await limits().admit(base, releaseNow)).toMatchObject({ outcome: 'held', heldFor: 'hash-b' });
    expect(await limits().used(base.companyId, period)).toBe(1);
  });
}
