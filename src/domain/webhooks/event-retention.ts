import { and, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../../data/database.js';
import { webhookEvents, webhookRedeliveries, webhookReplays } from '../../data/schema.js';

/**
 * Events are kept 30 days: the window a replay can reach. Housekeeping then removes them, their
 * delivery attempts with them (the foreign key cascades), and replays finished as long ago.
 */
export const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * A redelivery's row answers for the company's daily count (24 hours) and for the one pending
 * redelivery of an event (given up at 36 hours): past two days it answers for nothing.
 */
export const REDELIVERY_RETENTION_MS = 2 * 24 * 3600 * 1000;

export async function purgeExpiredWebhookEvents(db: Db, now: Date): Promise<void> {
  const oldest = new Date(now.getTime() - EVENT_RETENTION_MS);
  await db.delete(webhookEvents).where(lt(webhookEvents.createdAt, oldest));
  await db.delete(webhookReplays).where(and(isNotNull(webhookReplays.finishedAt), lt(webhookReplays.finishedAt, oldest)));
  await db.delete(webhookRedeliveries).where(lt(webhookRedeliveries.createdAt, new Date(now.getTime() - REDELIVERY_RETENTION_MS)));
}
