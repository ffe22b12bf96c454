import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm';
import { insertWhen } from '../../data/insert-when.js';
import { type DeliveryOrigin, webhookDeliveries, webhookEvents } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { randomBase62 } from '../../lib/crypto.js';
import { isUuid } from '../../lib/ids.js';
import type { CompanyReadContext, PageRequest } from '../read-context.js';
import type { CompanyContext } from '../verb-context.js';
import { type Page, pageOffset, pageWithTotal, totalOfAll } from '../shared/pagination.js';
import { type AttemptResult, attemptDelivery, attemptStillOpen, interruptedAttempt, ownDeliveryId } from './deliver-event.js';
import { testEventKind } from './event-catalog.js';
import { liveSubscription } from './subscriptions.js';
import { HOUR_MS, lockCompanyWebhooks, secondsUntilFree, TEST_DELIVERIES_PER_HOUR } from './webhook-bounds.js';

export type DeliveryAttempt = {
  /** The delivery the attempt belongs to: what POST …/deliveries/{delivery_id}/redeliver names. */
  delivery_id: string;
  /** Why the delivery was made: the event itself, a replay, or a redelivery. */
  origin: DeliveryOrigin;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  delivered: boolean;
  duration_ms: number | null;
  error_type: AttemptResult['errorType'];
  error: string | null;
  created_at: string;
};

const delivered = (statusCode: number | null) => statusCode !== null && statusCode >= 200 && statusCode < 300;

/** GET /v1/webhooks/{id}/deliveries: the subscription's attempts, newest first. */
export async function listDeliveries(ctx: CompanyReadContext, { id, page, perPage }: { id: string } & PageRequest): Promise<Page<DeliveryAttempt>> {
  const { services, companyId, now } = ctx;
  // The subscription is checked alongside the page (one round trip): the page is dropped if it is not found.
  const subscription = liveSubscription(services, companyId, id);
  if (!isUuid(id)) await subscription; // not found, before a query could choke on the id
  const mine = and(eq(webhookDeliveries.subscriptionId, id), eq(webhookDeliveries.companyId, companyId));
  const { db } = services.database;
  const [, rows] = await Promise.all([
    subscription,
    db
      .select({ delivery: webhookDeliveries, kind: webhookEvents.kind, total: totalOfAll() })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(mine)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.attempt))
      .limit(perPage)
      .offset(pageOffset(page, perPage)),
  ]);
  return pageWithTotal(
    rows,
    ({ delivery, kind }) => {
      // One never finished whose delivery had no later attempt to close it (its last, or its job gone).
      const cut = delivery.statusCode === null && delivery.errorType === null && !attemptStillOpen(delivery, now);
      return {
        delivery_id: delivery.deliveryId,
        origin: delivery.origin,
        event_id: delivery.eventId,
        event_type: kind,
        attempt: delivery.attempt,
        status_code: delivery.statusCode,
        delivered: delivered(delivery.statusCode),
        duration_ms: delivery.durationMs,
        error_type: cut ? interruptedAttempt.errorType : (delivery.errorType as AttemptResult['errorType']),
        error: cut ? interruptedAttempt.error : delivery.error,
        created_at: delivery.createdAt.toISOString(),
      };
    },
    page,
    perPage,
    () => db.select({ total: count() }).from(webhookDeliveries).where(mine),
  );
}

/**
 * POST /v1/webhooks/{id}/test: a signed `webhook.test` event delivered now, once, its result in the
 * answer (and in the deliveries list). Not retried: the integrator is watching. Each is an event kept
 * 30 days, so a company makes at most TEST_DELIVERIES_PER_HOUR in any hour.
 */
export async function sendTestEvent(ctx: CompanyContext, { id }: { id: string }): Promise<DeliveryAttempt> {
  const { services, companyId, now } = ctx;
  const subscription = await liveSubscription(services, companyId, id);
  const { db } = services.database;
  const ofTheHour = and(
    eq(webhookEvents.companyId, companyId),
    eq(webhookEvents.kind, testEventKind),
    gt(webhookEvents.createdAt, new Date(now.getTime() - HOUR_MS)),
  );
  const values = {
    id: `msg_test_${randomBase62(22)}`,
    companyId,
    envelopeId: null,
    kind: testEventKind,
    payload: { message: 'A test delivery: your endpoint is reachable and can verify our signature.', webhook_id: subscription.id },
    createdAt: now,
  };
  await services.database.atomic((q) => [
    lockCompanyWebhooks(q, companyId),
    insertWhen(q, webhookEvents, values, sql`(select count(*) from ${webhookEvents} where ${ofTheHour}) < ${TEST_DELIVERIES_PER_HOUR}`),
  ]);
  const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, values.id)).limit(1);
  if (!event) {
    const [oldest] = await db
      .select({ createdAt: webhookEvents.createdAt })
      .from(webhookEvents)
      .where(ofTheHour)
      .orderBy(asc(webhookEvents.createdAt))
      .limit(1);
    const retryAfter = secondsUntilFree(oldest?.createdAt, HOUR_MS, now);
    throw new DomainError(
      'rate_limited',
      `A company may make ${TEST_DELIVERIES_PER_HOUR} test deliveries in any hour. Retry after ${retryAfter} s.`,
      { limit: TEST_DELIVERIES_PER_HOUR, window_seconds: HOUR_MS / 1000 },
      { retryAfterSeconds: retryAfter },
    );
  }
  const delivery = { id: await ownDeliveryId(event.id, subscription.id), origin: 'event' as const };
  const result = await attemptDelivery(services, event, subscription, delivery);
  return {
    delivery_id: delivery.id,
    origin: delivery.origin,
    event_id: event.id,
    event_type: testEventKind,
    attempt: result.attempt,
    status_code: result.statusCode,
    delivered: result.delivered,
    duration_ms: result.durationMs,
    error_type: result.errorType,
    error: result.error,
    created_at: now.toISOString(),
  };
}
