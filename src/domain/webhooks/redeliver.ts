import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { insertWhen } from '../../data/insert-when.js';
import { webhookDeliveries, webhookEvents, webhookRedeliveries, webhookSubscriptions } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { CompanyContext } from '../verb-context.js';
import { attemptStillOpen, DELIVERY_ATTEMPTS, RETRIED_FOR_AT_MOST_MS } from './deliver-event.js';
import { testEventKind } from './event-catalog.js';
import { liveSubscription } from './subscriptions.js';
import { before, DAY_MS, lockCompanyWebhooks, REDELIVERIES_PER_DAY, secondsUntilFree } from './webhook-bounds.js';
import { queueTopics } from '../queue-topics.js';

export const deliveryNotFound = (id: string) =>
  new DomainError('delivery_not_found', 'This subscription has no delivery with that id (see GET /v1/webhooks/{id}/deliveries).', { delivery_id: id });

const deliveryPending = (id: string) =>
  new DomainError(
    'delivery_pending',
    'That delivery, or a redelivery of its event to this subscription, is still queued or being attempted; ask again once it has ended (see GET /v1/webhooks/{id}/deliveries).',
    { delivery_id: id },
  );

/**
 * POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver: the delivery's event again, as a new
 * delivery through the queue (retried like any other), with the same `webhook-id` and a fresh
 * signature. Asked of a disabled subscription, it enables it again, as a replay does. Refused while
 * the delivery is still queued or attempted, or while the event's last redelivery to the
 * subscription is (each would otherwise add a delivery of one event to one receiver), and past the
 * company's REDELIVERIES_PER_DAY in any 24 hours.
 */
export async function redeliver(
  ctx: CompanyContext,
  { subscriptionId, deliveryId }: { subscriptionId: string; deliveryId: string },
): Promise<{ delivery_id: string; event_id: string }> {
  const { services, companyId, now } = ctx;
  const subscription = await liveSubscription(services, companyId, subscriptionId);
  if (!isUuid(deliveryId)) throw deliveryNotFound(deliveryId);
  const { db } = services.database;
  const [latest] = await db
    .select({
      eventId: webhookDeliveries.eventId,
      kind: webhookEvents.kind,
      attempt: webhookDeliveries.attempt,
      statusCode: webhookDeliveries.statusCode,
      errorType: webhookDeliveries.errorType,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.deliveryId, deliveryId), eq(webhookDeliveries.subscriptionId, subscription.id), eq(webhookDeliveries.companyId, companyId)))
    .orderBy(desc(webhookDeliveries.attempt))
    .limit(1);
  if (!latest) {
    // A redelivery asked but not yet attempted has no attempts to list, though its id was answered.
    const [queued] = await db
      .select({ id: webhookRedeliveries.id })
      .from(webhookRedeliveries)
      .where(and(eq(webhookRedeliveries.id, deliveryId), eq(webhookRedeliveries.subscriptionId, subscription.id), isNull(webhookRedeliveries.settledAt)))
      .limit(1);
    throw queued ? deliveryPending(deliveryId) : deliveryNotFound(deliveryId);
  }
  if (!subscription.disabledAt && stillPending(latest, now)) throw deliveryPending(deliveryId);

  const id = crypto.randomUUID();
  const withinBudget = sql`(select count(*) from ${webhookRedeliveries} where ${webhookRedeliveries.companyId} = ${companyId} and ${webhookRedeliveries.createdAt} > ${before(now, DAY_MS)}) < ${REDELIVERIES_PER_DAY}`;
  const ofTheEvent = and(
    eq(webhookRedeliveries.subscriptionId, subscription.id),
    eq(webhookRedeliveries.eventId, latest.eventId),
    isNull(webhookRedeliveries.settledAt),
  );
  await services.database.atomic((q) => [
    lockCompanyWebhooks(q, companyId),
    // A redelivery whose end was never recorded (its job died) stops holding the event after its whole schedule.
    q
      .update(webhookRedeliveries)
      .set({ settledAt: now })
      .where(and(ofTheEvent, lt(webhookRedeliveries.createdAt, new Date(now.getTime() - RETRIED_FOR_AT_MOST_MS)))),
    // Skipped (on conflict) while the event's last redelivery is pending, or (by the condition) past the day's budget.
    insertWhen(q, webhookRedeliveries, { id, companyId, subscriptionId: subscription.id, eventId: latest.eventId, createdAt: now }, withinBudget),
  ]);
  const [asked] = await db.select({ id: webhookRedeliveries.id }).from(webhookRedeliveries).where(eq(webhookRedeliveries.id, id)).limit(1);
  if (!asked) {
    const [pending] = await db.select({ id: webhookRedeliveries.id }).from(webhookRedeliveries).where(ofTheEvent).limit(1);
    if (pending) throw deliveryPending(pending.id);
    throw await budgetSpent(services, companyId, now);
  }

  if (subscription.disabledAt) {
    await db.update(webhookSubscriptions).set({ disabledAt: null, disabledReason: null }).where(eq(webhookSubscriptions.id, subscription.id));
  }
  try {
    await services.queue.publish([
      {
        topic: queueTopics.webhookDeliver,
        body: { event_id: latest.eventId, subscription_id: subscription.id, delivery_id: id, origin: 'redelivery' },
        dedupeId: `redeliver.${id}`,
      },
    ]);
  } catch (err) {
    // Never queued: it must not hold the event, nor count.
    await db.delete(webhookRedeliveries).where(eq(webhookRedeliveries.id, id));
    throw err;
  }
  return { delivery_id: id, event_id: latest.eventId };
}

type LatestAttempt = { kind: string; attempt: number; statusCode: number | null; errorType: string | null; createdAt: Date };

/**
 * Whether the queue still holds or runs the delivery: its last attempt is running, or failed in a
 * way that is retried and was not the last, within the retries' schedule. A test delivery is never
 * retried, and a delivery ends at a 2xx, a 410 or a refused target.
 */
function stillPending(latest: LatestAttempt, now: Date): boolean {
  if (latest.kind === testEventKind) return attemptStillOpen(latest, now);
  if (latest.statusCode === null && latest.errorType === null) return attemptStillOpen(latest, now);
  const retried = latest.errorType !== null && latest.errorType !== 'refused_target' && latest.statusCode !== 410;
  return retried && latest.attempt < DELIVERY_ATTEMPTS && latest.createdAt.getTime() > now.getTime() - RETRIED_FOR_AT_MOST_MS;
}

/** `429 rate_limited`: the company's redeliveries of the last 24 hours are as many as it may ask. */
async function budgetSpent(services: Services, companyId: string, now: Date): Promise<DomainError> {
  const [oldest] = await services.database.db
    .select({ createdAt: webhookRedeliveries.createdAt })
    .from(webhookRedeliveries)
    .where(and(eq(webhookRedeliveries.companyId, companyId), sql`${webhookRedeliveries.createdAt} > ${before(now, DAY_MS)}`))
    .orderBy(webhookRedeliveries.createdAt)
    .limit(1);
  const retryAfter = secondsUntilFree(oldest?.createdAt, DAY_MS, now);
  return new DomainError(
    'rate_limited',
    `A company may ask ${REDELIVERIES_PER_DAY} redeliveries in any 24 hours. Retry after ${retryAfter} s, or replay a window of events instead.`,
    { limit: REDELIVERIES_PER_DAY, window_seconds: DAY_MS / 1000 },
    { retryAfterSeconds: retryAfter },
  );
}

/** Records that a redelivery's delivery ended, so that its event may be redelivered again. */
export async function settleRedelivery(services: Services, deliveryId: string): Promise<void> {
  await services.database.db
    .update(webhookRedeliveries)
    .set({ settledAt: services.clock.now() })
    .where(and(eq(webhookRedeliveries.id, deliveryId), isNull(webhookRedeliveries.settledAt)));
}
