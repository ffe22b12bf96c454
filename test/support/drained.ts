/**
 * The event a test waits for before it asserts that something did not happen (no second e-mail,
 * no delivery to a disabled subscription): the stack has run all it was handed. A fixed pause
 * would let an effect that is merely late pass as one that never comes.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { expect, vi } from 'vitest';
import { outboxMessages } from '../../src/data/schema.js';
import type { TestStack } from './stack.js';

/**
 * Resolves once what the stack's requests left running after their answers (the outbox relay)
 * has ended and the queue has run every message due now, including those its consumers handed
 * over meanwhile. Messages due later (reminders, expiry) stay queued, as they would in production.
 */
export async function drained(stack: Pick<TestStack, 'afterAnswers' | 'services'>): Promise<void> {
  do {
    await Promise.allSettled([...(stack.afterAnswers ?? [])]);
    await stack.services.inProcessQueue.drained();
  } while ((stack.afterAnswers?.size ?? 0) > 0);
}

/** Resolves once every outbox row of `companyId` was handed to the queue (requests relay theirs just after their answer). */
export async function outboxRelayed(stack: Pick<TestStack, 'services'>, companyId: string, options?: { timeout?: number; interval?: number }): Promise<void> {
  await vi.waitFor(
    async () =>
      expect(
        await stack.services.database.db
          .select()
          .from(outboxMessages)
          .where(and(eq(outboxMessages.companyId, companyId), isNull(outboxMessages.relayedAt))),
      ).toEqual([]),
    options,
  );
}
