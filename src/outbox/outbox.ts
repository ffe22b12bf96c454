/**
 * The transactional outbox. A state change writes one row per side effect (an e-mail, a webhook
 * dispatch, a timer) in the same batch as the change, so either both exist or neither does. After
 * the commit the edge that ran the verb relays its rows to the queue (a request once it answered, a
 * queue job before its message is acknowledged); the sweeper relays what one that died left behind. A row's id is the queue's deduplication id, and every consumer is safe to run
 * twice, so a row relayed twice does no harm; a row never relayed is the only thing to avoid.
 */
import { and, asc, inArray, isNull, lte } from 'drizzle-orm';
import type { Db, Statement } from '../data/database.js';
import { insertRows } from '../data/insert-rows.js';
import { outboxMessages } from '../data/schema.js';
import { logError } from '../lib/log-error.js';
import type { QueueMessage } from '../ports/queue.js';
import type { Services } from '../services.js';

/** A side effect to hand to the queue: every one has an id, which deduplicates its relays. */
export type OutboxMessage = QueueMessage & { dedupeId: string };

/** The statement that records side effects; goes in the batch of the change that causes them. */
export function outboxInsert(q: Db, companyId: string, messages: OutboxMessage[], now: Date): Statement[] {
  if (messages.length === 0) return [];
  const rows = messages.map((message) => ({
    id: message.dedupeId,
    companyId,
    topic: message.topic,
    body: message.body,
    dueAt: message.notBefore ?? null,
    createdAt: now,
  }));
  return [insertRows(q, outboxMessages, rows).onConflictDoNothing()];
}

/**
 * Hands committed rows to the queue, then marks them relayed. Never throws: a row this misses
 * stays unrelayed, and the sweeper hands it over later.
 */
export async function relayOutbox(services: Services, messages: OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  try {
    await handOver(services, messages);
  } catch (err) {
    logError('outbox relay failed; the sweeper will hand the messages over', err);
  }
}

/** Rows a request should have relayed by now: younger ones may still be on their way. */
export const SWEEP_GRACE_MS = 30_000;
const SWEEP_BATCH = 200;

/**
 * Relays every row left unrelayed for longer than the grace period, oldest first, in batches.
 * Answers how many rows it handed over. Run by a cron trigger (production) or a timer (embedded).
 */
export async function sweepOutbox(services: Services, options: { graceMs?: number; maxBatches?: number } = {}): Promise<number> {
  const { db } = services.database;
  const cutoff = new Date(services.clock.now().getTime() - (options.graceMs ?? SWEEP_GRACE_MS));
  let relayed = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 20); batch++) {
    const rows = await db
      .select()
      .from(outboxMessages)
      .where(and(isNull(outboxMessages.relayedAt), lte(outboxMessages.createdAt, cutoff)))
      .orderBy(asc(outboxMessages.createdAt))
      .limit(SWEEP_BATCH);
    if (rows.length === 0) break;
    await handOver(
      services,
      rows.map((row) => ({ topic: row.topic, body: row.body, dedupeId: row.id, ...(row.dueAt ? { notBefore: row.dueAt } : {}) })),
    );
    relayed += rows.length;
    if (rows.length < SWEEP_BATCH) break;
  }
  return relayed;
}

/** Publishes the rows' messages and marks the rows relayed: in one step where the queue can. */
async function handOver(services: Services, messages: OutboxMessage[]): Promise<void> {
  const ids = messages.map((message) => message.dedupeId);
  const { queue } = services;
  if (queue.relayFromOutbox) return queue.relayFromOutbox(messages, { ids, relayedAt: services.clock.now() });
  await queue.publish(messages);
  await markRelayed(services, ids);
}

async function markRelayed(services: Services, ids: string[]): Promise<void> {
  await services.database.db
    .update(outboxMessages)
    .set({ relayedAt: services.clock.now() })
    .where(and(inArray(outboxMessages.id, ids), isNull(outboxMessages.relayedAt)));
}
