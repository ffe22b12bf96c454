/**
 * The in-process send limits give an admission back exactly once, by its token; and a send's
 * releaseAdmission, asked twice in either of its call shapes, gives back one unit.
 */
import { describe, expect, it } from 'vitest';
import { MemorySendLimits } from '../../src/adapters/embedded/memory-send-limits.js';
import { releaseAdmission, takeAdmission } from '../../src/domain/envelopes/send-admission.js';
import { ManualClock } from '../../src/ports/clock.js';
import { CLAIM_TTL_MS } from '../../src/ports/send-limits.js';
import type { Services } from '../../src/services.js';
import { releaseNow, sendReleaseCases } from '../support/send-release-cases.js';

const clock = new ManualClock(releaseNow);
const limits = new MemorySendLimits(clock);

describe('MemorySendLimits: a release by token', () => {
  sendReleaseCases(() => limits);

  it('gives back nothing once the token has lapsed with its claim', async () => {
    const lapsing = new MemorySendLimits(new ManualClock(new Date(releaseNow.getTime() + CLAIM_TTL_MS)));
    const scope = { companyId: crypto.randomUUID(), apiKeyId: `key_${crypto.randomUUID()}` };
    const admission = await lapsing.admit({ ...scope, period: '2026-11', allowance: 5 }, releaseNow);
    if (admission.outcome !== 'admitted') throw new Error(`not admitted: ${admission.outcome}`);
    expect(await lapsing.release({ ...scope, period: '2026-11', token: admission.release })).toBe(false);
    expect(await lapsing.used(scope.companyId, '2026-11')).toBe(1);
  });
});

describe("a send's releaseAdmission", () => {
  const services = { sendLimits: limits } as unknown as Services;
  const scope = () => ({ companyId: crypto.randomUUID(), apiKeyId: `key_${crypto.randomUUID()}` });
  const asked = { allowance: 5, claim: { key: 'order-1', requestHash: 'hash-a' } };
  const ignore = () => {};

  it('gives back one unit for the release of an admission asked twice', async () => {
    const sender = scope();
    await takeAdmission(services, sender, asked, releaseNow, ignore);
    const taken = await takeAdmission(services, sender, { allowance: 5 }, releaseNow, ignore);
    if ('heldFor' in taken) throw new Error('held');
    await releaseAdmission(services, taken.release);
    await releaseAdmission(services, taken.release);
    expect(await limits.used(sender.companyId, '2026-11')).toBe(1);
  });

  it('frees the key of an admission given back, and gives back its unit once however often asked', async () => {
    const sender = scope();
    await takeAdmission(services, { ...sender }, { allowance: 5 }, releaseNow, ignore);
    const taken = await takeAdmission(services, sender, asked, releaseNow, ignore);
    if (!('release' in taken)) throw new Error('expected an admission');
    await releaseAdmission(services, taken.release);
    await releaseAdmission(services, taken.release);
    expect(await limits.used(sender.companyId, '2026-11')).toBe(1);
    // The key is free again: a retry with it is admitted, not held.
    expect('release' in (await takeAdmission(services, { ...sender }, asked, releaseNow, ignore))).toBe(true);
  });
});
