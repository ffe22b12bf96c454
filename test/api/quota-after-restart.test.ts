/**
 * The monthly quota without Redis (`npm start`, and `npm run dev` without REDIS_URL, whose Worker
 * builds the same in-process send limits over its database): a process that starts again on the
 * same data counts from the envelopes the database holds, so a restart gives no fresh allowance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySendLimits } from '../../src/adapters/embedded/memory-send-limits.js';
import { sendsInPeriod } from '../../src/domain/quota/sends-in-period.js';
import { systemClock } from '../../src/ports/clock.js';
import { createTestCompany, createTestTemplate } from '../support/factories.js';
import { call } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

describe('the quota of a process started again on the same database', () => {
  it('starts from the envelopes sent this month: the allowance left is what was left', async () => {
    const company = await createTestCompany(stack, { quota: 3 });
    const template = await createTestTemplate(stack, company.id);
    for (let i = 0; i < 2; i++) {
      const sent = await call(stack, 'POST', '/v1/envelopes/from-template', {
        token: company.owner.token,
        body: {
          template_id: template.id,
          recipients: [
            { role: 'Client', name: 'C', email: 'c@example.test' },
            { role: 'Witness', name: 'W', email: 'w@example.test' },
          ],
        },
      });
      expect(sent.status).toBe(201);
    }
    const now = stack.services.clock.now();
    const period = now.toISOString().slice(0, 7);

    // What a restarted process builds: fresh in-process limits, counting from the database.
    const restarted = new MemorySendLimits(systemClock, (companyId, month) => sendsInPeriod(stack.services.database.db, companyId, month));
    expect(await restarted.used(company.id, period)).toBe(2);
    const attempt = { apiKeyId: company.owner.id, companyId: company.id, period, allowance: 3 };
    expect((await restarted.admit(attempt, now)).outcome).toBe('admitted');
    expect((await restarted.admit(attempt, now)).outcome).toBe('exceeded');
  });
});
